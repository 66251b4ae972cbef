// Package analog emulates the non-spiking mode of BrainScaleS-2, the
// analog neuromorphic chip that hxtorch integrates into PyTorch ("hxtorch:
// PyTorch for BrainScaleS-2 — Perceptrons on Analog Neuromorphic
// Hardware", Spilger et al., 2020; the hxtorch paper below):
// a quantised vector–matrix multiplication xᵀW = y with 5-bit unsigned
// inputs (0..31), 6-bit weights plus sign (−63..63, or 0..63 unsigned) and
// 8-bit results (−128..127).
//
// # The model
//
// A System is one or more emulated chips of two 256×256 synapse arrays
// each (Config). An operation's weights are split into array-sized tiles
// — 128 rows with signed weights (two physical rows per input), 256 with
// unsigned ones, 256 columns — placed round robin on the arrays
// (Partition, the hxtorch paper, §3.3 and Fig 6). For one tile and array
// column j:
//
//	v   = g_j · Gain · num_sends · Σ_i x_i w_ij + o_j + Noise · ε
//	v'  = Saturation · tanh(v / Saturation)          (Saturation > 0)
//	y_k = clamp(floor(v'), −128, 127)
//
// with ε ~ N(0,1) fresh on every trial, and the fixed pattern g_j ~ N(1,
// GainSpread²), o_j ~ N(0, OffsetSpread²) drawn once per array column
// from Config.Seed. The results of a column's row splits are summed
// digitally and saturated to −128..127 (eq. 1 of the hxtorch paper); column splits
// are concatenated. MockConfig is hxtorch's mock model (gain 0.0012,
// noise 2 LSB, nothing else); ChipConfig adds the fixed pattern and the
// saturation of an emulated chip.
//
// num_sends repeats every input event: the analog result grows with it,
// the read-out noise does not. wait_between_events spaces the events; it
// enters the timing model only.
//
// # Using it
//
//	sys, _ := analog.New(analog.ChipConfig(1))
//	m, _ := sys.Configure(w, rows, cols, analog.Op{NumSends: 2}) // static configuration
//	err := m.Apply(x, batch, y)                                   // per input batch
//
// Inputs and weights are float64 in hardware units; non-integers are
// rounded (the conversion to the hardware types does that), values outside
// the ranges are errors unless Op.Clamp asks for clamping. Calibrate
// measures gain and noise from random test matrices, as hxtorch's
// measure_mock_parameter does, and fits every column's gain and offset;
// SetCalibration corrects them in postprocessing.
//
// # Execution, layers, backend
//
// Matrix.Run executes an operation as hxtorch does (§3.2, Figs. 2, 4, 5):
// a jit.Graph of execution instances — quantise per row split, per tile
// build the instruction stream and execute it on the tile's chip, decode
// and sum per column split — whose host stages overlap with execution;
// PipelineOptions.MockPartner replaces the chip by a fast mock
// communication partner (the software overhead alone). ConfigBytes,
// DataBytes, CrossoverBatch, LinkRate and Matrix.ChipTime are the cost,
// link and timing models. Run stops on the process's interrupt flag
// (package interrupt) through jit.Graph.Run, Calibrate between arrays, each
// with an error wrapping interrupt.ErrInterrupted; Apply, one batch per
// call, is not checked (the simulator and the trainer that call it check
// between their steps).
//
// Linear, Conv1d, Conv2d and ExpandedConv1d (Fig. 7) are toolkit/layers
// specs with the float layers' parameter shapes; their forward pass runs
// on a System (MockConfig in software, an emulated chip for
// hardware-in-the-loop training), their backward pass is the software
// model straight through, scaled by gain·num_sends, with gradients
// dropped where a result saturated (§3.1). ReLU and ConvertingReLU convert
// between layers; InitBound, ScaleWeights and FitInputScale scale. Their
// kernels declare the hardware range as a constraint,
// layers.Bounds{Lo: −63, Hi: 63} (Param.Constraint, role
// layers.RoleKernel): package train applies it after every optimiser
// step, the paper's clamp_weight_, so that the trained weights stay the
// ones the chip runs (the forward pass clamps anyway; without the
// projection the straight-through gradient would push weights ever
// further outside, where they no longer act). Nothing here depends on
// the trainer.
//
// NewBackend is a sim.Backend: the CPU simulator runs the model, its dense
// products and Dense/Conv layer nodes run on an emulated, calibrated chip
// (sim.Hooks), with scales from a range-finding run; Select and
// SelectLayer choose per connection, Placement reports. It passes
// sim/simtest with simtest.Analog.
//
// The arithmetic: the exact integer sums Σ x·w of a tile are computed as
// one float32 GEMM (exact, |Σ| < 2²⁴); the column model is applied
// element-wise. Trial-to-trial noise is drawn per (call, tile, batch
// chunk of 128) from a counter-based stream, so results are identical for
// any number of goroutines, and Matrix.Reseed repeats them.
package analog
