package plastic

import "github.com/neurogo/neurogo/toolkit/stream"

// hebbEstimate writes the Hebbian estimate of a dense weight matrix W
// (layout (ns, nt), row-major: W[i·nt + j] connects source unit i to target
// unit j, the executor's dense layout) into dst:
//
//	dst[i·nt + j] = sign · (1/A) Σ_a x[a,i] · (y1[a,j] − y0[a,j])
//
// with x the source states at frame t (A agents × ns), y1 the target's
// one-step rollout (frame t+1) and y0 the target at frame t (nil: the plain
// rule, without the difference). sign is +1 for hebbian and dt_hebbian,
// −1 for the anti variants. This is ΔW_ij = x_i(t)·x_j(t+1) of §3.1 of the
// statestream paper, averaged over agents (statestream sums over agents instead,
// neuronal/plasticities/hebbian.py; the mean keeps the learning rate
// independent of the number of agents).
func hebbEstimate(dst, x, y1, y0 []float64, agents, ns, nt int, sign float64) {
	clear(dst)
	s := sign / float64(agents)
	for a := 0; a < agents; a++ {
		xa := x[a*ns : (a+1)*ns]
		ya := y1[a*nt : (a+1)*nt]
		var y0a []float64
		if y0 != nil {
			y0a = y0[a*nt : (a+1)*nt]
		}
		for i, xi := range xa {
			if xi == 0 {
				continue
			}
			row := dst[i*nt : (i+1)*nt]
			f := s * xi
			if y0a == nil {
				for j, yj := range ya {
					row[j] += f * yj
				}
			} else {
				for j, yj := range ya {
					row[j] += f * (yj - y0a[j])
				}
			}
		}
	}
}

// hebbEstimateAgents is hebbEstimate for an unshared weight
// (statestream's unshare): dst holds one (ns, nt) matrix per agent, and
// agent a's is sign · x[a,i] · (y1[a,j] − y0[a,j]), its own outer product
// without a mean over agents (statestream's hebbian plasticity for
// unshared weights).
func hebbEstimateAgents(dst, x, y1, y0 []float64, agents, ns, nt int, sign float64) {
	m := ns * nt
	for a := 0; a < agents; a++ {
		var y0a []float64
		if y0 != nil {
			y0a = y0[a*nt : (a+1)*nt]
		}
		hebbEstimate(dst[a*m:(a+1)*m], x[a*ns:(a+1)*ns], y1[a*nt:(a+1)*nt], y0a, 1, ns, nt, sign)
	}
}

// ownerUnshared reports whether the synapse-pool weight r holds one
// matrix per agent: it is in its synapse-pool's unshare list, or it is
// shared (share params) from one whose list has it.
func ownerUnshared(net *stream.Net, r stream.ParamRef) bool {
	sp := net.SP(r.Item)
	if sp == nil {
		return false
	}
	if o, ok := sp.Share[r.Name]; ok {
		if osp := net.SP(o.Item); osp != nil {
			return osp.Unshared(o.Name)
		}
	}
	return sp.Unshared(r.Name)
}

// regGrad writes the descent direction of the L1/L2 regulariser
// L1·Σ|w| + L2·Σw²/2 into dst: L1·sign(w) + L2·w (sign(0) = 0).
func regGrad(dst, w []float64, l1, l2 float64) {
	for i, wi := range w {
		s := 0.0
		if wi > 0 {
			s = 1
		} else if wi < 0 {
			s = -1
		}
		dst[i] = l1*s + l2*wi
	}
}

// hebbMode returns the sign and the dt flag of a Hebbian plasticity type
// ("hebbian", "anti_hebbian", "dt_hebbian", "dt_anti_hebbian"; statestream
// also writes the dt forms with a space, "dt hebbian"); sign 0 means the
// type is not Hebbian.
func hebbMode(typ string) (sign float64, dt bool) {
	switch typ {
	case "hebbian":
		return 1, false
	case "anti_hebbian":
		return -1, false
	case "dt_hebbian", "dt hebbian":
		return 1, true
	case "dt_anti_hebbian", "dt anti_hebbian":
		return -1, true
	}
	return 0, false
}
