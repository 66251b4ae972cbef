package analog

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Hardware ranges of the chip's non-spiking (matrix-multiplication) mode,
// after §1 of the hxtorch paper: inputs are 5-bit unsigned, weights 6 bit
// plus a sign, results the 8-bit digitised membrane voltages.
const (
	InputMax  = 31   // inputs x ∈ [0, 31]
	WeightMax = 63   // weights w ∈ [−63, 63] signed, [0, 63] unsigned
	OutputMin = -128 // results y ∈ [−128, 127]
	OutputMax = 127
	// ArrayRows is the number of physical synapse rows of one synapse
	// array: 256 inputs with unsigned weights, 128 with signed weights
	// (two rows, excitatory and inhibitory, per input); the hxtorch paper, §3.3.
	ArrayRows = 256
	// ArrayCols is the number of neuron columns of one synapse array.
	ArrayCols = 256
	// DefaultGain is the output in LSB per unit of input × weight and per
	// send, and DefaultNoise the trial-to-trial noise in LSB: the values of
	// hxtorch's mock model (MockParameter gain 0.0012, noise_std 2).
	DefaultGain  = 0.0012
	DefaultNoise = 2.0
)

// Config describes an emulated system of BrainScaleS-2 chips.
//
// The model of one synapse array column j for inputs x and weights w of
// one row chunk k (the hxtorch paper, §1 and §3.3; hxtorch's mock model plus fixed
// pattern and saturation):
//
//	v  = g_j·Gain·num_sends·Σ_i x_i·w_ij + o_j + Noise·ε,   ε ~ N(0, 1) per trial
//	v' = Saturation·tanh(v/Saturation)          (when Saturation > 0)
//	y_k = clamp(floor(v'), −128, 127)
//
// g_j ~ N(1, GainSpread²) and o_j ~ N(0, OffsetSpread²) are drawn once per
// array column of every chip from Seed (fixed-pattern noise); the partial
// results of the row chunks are summed digitally with saturation to
// [−128, 127].
type Config struct {
	// Chips and ArraysPerChip size the system (0: 1 chip with 2 synapse
	// arrays, the BSS-2 chip of the hxtorch paper, §3.3).
	Chips, ArraysPerChip int
	// Gain is the output in LSB per unit of input × weight per send
	// (0: DefaultGain).
	Gain float64
	// Noise is the standard deviation of the trial-to-trial Gaussian
	// noise in LSB (0: none).
	Noise float64
	// GainSpread and OffsetSpread are the standard deviations of the
	// fixed-pattern relative column gain and column offset (LSB); 0: none.
	GainSpread, OffsetSpread float64
	// Saturation is the scale (LSB) of the membrane's soft saturation,
	// v → S·tanh(v/S), before digitisation; 0: linear up to the clamp.
	Saturation float64
	// Seed draws the fixed pattern and seeds the trial-to-trial noise.
	Seed int64
	// Software makes the system a continuous software model of the chip:
	// inputs and weights quantised as on the chip, the product
	// Gain·num_sends·Σ x·w exact, Noise added once per output, no
	// digitisation (no floor, no clamp, no row chunks) and no fixed
	// pattern — the wording of §4.2 of the hxtorch paper ("the weights and inputs were
	// already quantized and scaled to the dynamic range of the hardware,
	// and Gaussian noise was added to the output of each layer"). The mock
	// (MockConfig) digitises as the chip does.
	Software bool
	// NoReuse refuses operations that need more synapse arrays than the
	// system has, instead of reusing arrays over several runs (temporal
	// reuse, the hxtorch paper, §3.3).
	NoReuse bool
}

// MockConfig is hxtorch's mock model: the ideal chip with the default
// gain and Gaussian trial-to-trial noise only (no fixed pattern, linear
// up to the 8-bit clamp). It is what software training with quantisation
// and noise runs (the hxtorch paper, §4.2).
func MockConfig() Config { return Config{Gain: DefaultGain, Noise: DefaultNoise} }

// SoftwareConfig is the continuous software model of the chip
// (Config.Software): the mock's gain and 2 LSB of Gaussian noise per
// output, no digitisation.
func SoftwareConfig() Config { return Config{Gain: DefaultGain, Noise: DefaultNoise, Software: true} }

// ChipConfig is an emulated chip drawn from seed: the mock model plus
// 10 % column-gain spread, 2 LSB column-offset spread and a membrane
// saturation at 160 LSB, the deviations that make a model trained on the
// mock lose accuracy on the chip until it is trained with the hardware
// in the loop (the hxtorch paper, Fig 9b–c).
func ChipConfig(seed int64) Config {
	return Config{Gain: DefaultGain, Noise: DefaultNoise, GainSpread: 0.1, OffsetSpread: 2, Saturation: 160, Seed: seed}
}

// System is an emulated system: the configuration, the fixed pattern of
// every synapse array column, and an optional per-column calibration. A
// System's methods may be called from several goroutines; every Matrix
// and layer executor draws noise from its own stream.
type System struct {
	cfg    Config
	arrays int
	gain   [][]float64 // [array][column] fixed-pattern relative gain
	offset [][]float64 // [array][column] fixed-pattern offset (LSB)
	// corrections from Calibrate, nil until used
	corrGain, corrOffset [][]float64
	corrSat              float64
}

// New validates cfg and draws the system's fixed pattern.
func New(cfg Config) (*System, error) {
	if cfg.Chips == 0 {
		cfg.Chips = 1
	}
	if cfg.ArraysPerChip == 0 {
		cfg.ArraysPerChip = 2
	}
	if cfg.Gain == 0 {
		cfg.Gain = DefaultGain
	}
	switch {
	case cfg.Chips < 0 || cfg.Chips > 1024:
		return nil, fmt.Errorf("analog: Config.Chips = %d: must be in 1..1024", cfg.Chips)
	case cfg.ArraysPerChip < 0 || cfg.ArraysPerChip > 64:
		return nil, fmt.Errorf("analog: Config.ArraysPerChip = %d: must be in 1..64", cfg.ArraysPerChip)
	case !(cfg.Gain > 0) || math.IsInf(cfg.Gain, 0):
		return nil, fmt.Errorf("analog: Config.Gain = %v: must be positive and finite", cfg.Gain)
	case !(cfg.Noise >= 0) || math.IsInf(cfg.Noise, 0):
		return nil, fmt.Errorf("analog: Config.Noise = %v: must be ≥ 0 and finite (LSB)", cfg.Noise)
	case !(cfg.GainSpread >= 0) || cfg.GainSpread >= 1:
		return nil, fmt.Errorf("analog: Config.GainSpread = %v: must be in [0, 1) (relative)", cfg.GainSpread)
	case !(cfg.OffsetSpread >= 0) || math.IsInf(cfg.OffsetSpread, 0):
		return nil, fmt.Errorf("analog: Config.OffsetSpread = %v: must be ≥ 0 and finite (LSB)", cfg.OffsetSpread)
	case !(cfg.Saturation >= 0) || math.IsInf(cfg.Saturation, 0) || (cfg.Saturation > 0 && cfg.Saturation < 16):
		return nil, fmt.Errorf("analog: Config.Saturation = %v: must be 0 (off) or at least 16 LSB", cfg.Saturation)
	}
	s := &System{cfg: cfg, arrays: cfg.Chips * cfg.ArraysPerChip}
	rng := rand.New(rand.NewPCG(uint64(cfg.Seed), 0xfa77e2))
	s.gain = make([][]float64, s.arrays)
	s.offset = make([][]float64, s.arrays)
	for a := range s.arrays {
		s.gain[a] = make([]float64, ArrayCols)
		s.offset[a] = make([]float64, ArrayCols)
		for j := range ArrayCols {
			g := 1 + cfg.GainSpread*rng.NormFloat64()
			s.gain[a][j] = math.Max(g, 0.05) // a column never inverts
			s.offset[a][j] = cfg.OffsetSpread * rng.NormFloat64()
		}
	}
	return s, nil
}

// Config returns the system's configuration with defaults filled in.
func (s *System) Config() Config { return s.cfg }

// Arrays is the number of synapse arrays (chips × arrays per chip).
func (s *System) Arrays() int { return s.arrays }

// FixedPattern returns copies of the relative gain and the offset (LSB)
// of the columns of synapse array a (0 ≤ a < Arrays()).
func (s *System) FixedPattern(a int) (gain, offset []float64, err error) {
	if a < 0 || a >= s.arrays {
		return nil, nil, fmt.Errorf("analog: FixedPattern: array %d: the system has arrays 0..%d", a, s.arrays-1)
	}
	return append([]float64(nil), s.gain[a]...), append([]float64(nil), s.offset[a]...), nil
}
