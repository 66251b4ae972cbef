package plastic

import (
	"fmt"
	"math"

	"github.com/neurogo/neurogo/toolkit/stream"
	"github.com/neurogo/neurogo/train/optim"
)

// Defaults of the optimiser keys when a plasticity leaves them at zero.
const (
	// DefaultLR is the learning rate of a plasticity with lr 0 (unset).
	DefaultLR = 1e-3
	// DefaultMomentum and DefaultDecay are adam's β1 and β2
	// (toolkit/stream's Plasticity documentation; Kingma & Ba 2015).
	DefaultMomentum = 0.9
	DefaultDecay    = 0.999
	// DefaultRho is rmsprop's decay of the squared-gradient average.
	DefaultRho = 0.9
)

// newOptimizer builds the optimiser of plasticity p (the statestream paper, §3.1: the
// update estimate goes through an optimiser part): grad_desc (default) is
// plain SGD, Δw = −lr·g; adam is Kingma & Ba 2015 with β1 = momentum and
// β2 = decay; rmsprop uses rho. Errors name the plasticity and the key.
func newOptimizer(p *stream.Plasticity) (optim.Optimizer, error) {
	lr := p.LR
	if lr == 0 {
		lr = DefaultLR
	}
	if bad(lr) || lr < 0 {
		return nil, fmt.Errorf("plastic: plasticity %q: lr = %v, must be finite and > 0", p.Name, p.LR)
	}
	inUnit := func(key string, v, def float64) (float64, error) {
		if v == 0 {
			v = def
		}
		if bad(v) || v < 0 || v >= 1 {
			return 0, fmt.Errorf("plastic: plasticity %q: %s = %v, must be in [0, 1)", p.Name, key, v)
		}
		return v, nil
	}
	switch p.Optimizer {
	case "", "grad_desc":
		return &optim.SGD{LR: lr}, nil
	case "adam":
		b1, err := inUnit("momentum", p.Momentum, DefaultMomentum)
		if err != nil {
			return nil, err
		}
		b2, err := inUnit("decay", p.Decay, DefaultDecay)
		if err != nil {
			return nil, err
		}
		return &optim.Adam{LR: lr, Beta1: b1, Beta2: b2}, nil
	case "rmsprop":
		rho, err := inUnit("rho", p.Rho, DefaultRho)
		if err != nil {
			return nil, err
		}
		return &optim.RMSProp{LR: lr, Rho: rho}, nil
	}
	return nil, fmt.Errorf("plastic: plasticity %q: optimizer %q unknown, must be grad_desc, adam or rmsprop", p.Name, p.Optimizer)
}

func bad(x float64) bool { return math.IsNaN(x) || math.IsInf(x, 0) }
