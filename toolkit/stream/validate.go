package stream

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Known names (statestream's docs/neuron_pools.md, synapse_pools.md,
// plasticities.md, plasticity_loss.md; the statestream paper, appendix 6.1).
var (
	knownActs = []string{"Id", "relu", "leakyrelu", "elu", "selu", "sigmoid",
		"tanh", "softmax", "softplus", "exp", "abs", "square", "log", "neglog",
		"mexp", "msquare", "gaussian"}
	knownShapeModes = []string{"feature", "full", "spatial", "scalar", "false"}
	knownNormModes  = []string{"false", "full", "feature", "spatial", "scalar"}
	knownNoise      = []string{"normal", "uniform"}
	knownPlastTypes = []string{"loss", "hebbian", "anti_hebbian", "dt_hebbian",
		"dt_anti_hebbian", "L_regularizer"}
	knownLosses = []string{"mse", "mae", "hinge", "negloglikelihood",
		"categorical_crossentropy", "minimize", "maximize"}
	knownOptimizers = []string{"grad_desc", "adam", "rmsprop"}
	knownInits      = []string{"xavier", "xavier_G", "id", "Id", "-id", "-Id", "id_X",
		"Id_X", "normal", "normal_M_S", "uniform", "uniform_A_B", "bilin", "zero"}
	knownWeightFncs = []string{"Id", "exp", "abs", "square"}
)

// Sanity bounds: a pool holds at most maxPoolSize values per agent, and a
// loss plasticity's rollout is at most maxRolloutDepth frames deep.
const (
	maxPoolSize     = 1 << 30
	maxRolloutDepth = 1000
)

// knownAct reports whether a is an activation name; "" (default Id) and
// "id" are accepted as Id.
func knownAct(a string) bool {
	return a == "" || a == "id" || slices.Contains(knownActs, a)
}

// parsePact splits a pre-activation (SynapsePool.Pact) into an activation
// name and a threshold: "relu" → (relu, 0); statestream's expression form
// "B.relu($, thresh=1.0)" → (relu, 1), the activation of x − thresh
// (statestream's relu(x, thresh)); "B.name($)" → (name, 0). ok is false
// for anything else (an unknown name, another expression).
func parsePact(a string) (act string, thresh float64, ok bool) {
	s := strings.TrimSpace(a)
	if !strings.HasPrefix(s, "B.") {
		return s, 0, knownAct(s)
	}
	name, rest, found := strings.Cut(s[2:], "(")
	if !found || !strings.HasSuffix(rest, ")") {
		return "", 0, false
	}
	args := strings.Split(strings.TrimSuffix(rest, ")"), ",")
	if strings.TrimSpace(args[0]) != "$" || !knownAct(name) {
		return "", 0, false
	}
	switch len(args) {
	case 1:
		return name, 0, true
	case 2:
		k, v, found := strings.Cut(args[1], "=")
		if !found || strings.TrimSpace(k) != "thresh" || name != "relu" {
			return "", 0, false
		}
		t, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil {
			return "", 0, false
		}
		return name, t, true
	}
	return "", 0, false
}

// checkInit reports whether s is a known initialiser (see
// SynapsePool.Init); the parametrised forms need numbers.
func checkInit(s string) bool {
	switch s {
	case "xavier", "id", "Id", "-id", "-Id", "normal", "uniform", "bilin", "zero":
		return true
	}
	if _, err := strconv.ParseFloat(s, 64); err == nil {
		return true
	}
	parts := strings.Split(s, "_")
	nums := func(xs []string) bool {
		for _, x := range xs {
			if _, err := strconv.ParseFloat(x, 64); err != nil {
				return false
			}
		}
		return true
	}
	switch {
	case (parts[0] == "xavier" || parts[0] == "id" || parts[0] == "Id") && len(parts) == 2:
		return nums(parts[1:])
	case (parts[0] == "normal" || parts[0] == "uniform") && len(parts) == 3:
		return nums(parts[1:])
	}
	return false
}

// validator collects the errors of one Validate call.
type validator struct {
	n    *Net
	errs []error
}

func (v *validator) add(pos Pos, keyPos map[string]Pos, section, item, key, sug, format string, args ...any) {
	if p, ok := keyPos[key]; ok {
		pos = p
	}
	v.errs = append(v.errs, specErr(pos, section, item, key, sug, fmt.Sprintf(format, args...)))
}

func (v *validator) poolNames() []string {
	var s []string
	for _, p := range v.n.NeuronPools {
		s = append(s, p.Name)
	}
	return s
}

// Validate checks the network for consistency and returns every problem
// found, joined with errors.Join (each a *validate.Error naming section, item and
// key; with file positions when the Net was loaded). It may be called on a
// Net built in Go. Zero-valued strings mean the documented defaults
// (Act "" = Id, BiasShape "" = feature, GainShape "" = false, Optimizer
// "" = grad_desc); Period 0 means 1; other numbers have no implicit
// defaults here: Shape entries must be ≥ 1 (the loader fills them in).
//
// Checked: unique names within each section; every referenced pool exists;
// shapes ≥ 1; activations, bias/gain/normalisation modes, noise types,
// inits, plasticity types, loss functions and optimisers are known;
// dropout and zoneout in [0, 1); synapse-pool sources, RF / Dilation / PPP
// / WeightFnc / Act lengths; the spatial fit of every source to the target
// (equal, or an integer stride or upsampling factor; a convolution's rf
// odd and ≤ the upsampled source extent; dense connections fit anything);
// id / -id inits only between equal feature counts; Init keys and
// plasticity Params name existing parameters; Hebbian plasticities; every
// plasticity's local rollout (Net.Rollout); interface pools; periods ≥ 1
// (0 means 1) and 0 ≤ offset < period.
func (n *Net) Validate() error {
	if n == nil {
		return errors.New("stream: Validate of a nil Net")
	}
	v := &validator{n: n}
	if n.Agents < 1 {
		v.add(n.Pos, nil, "agents", "", "", "", "agents must be ≥ 1 (got %d)", n.Agents)
	}
	v.unique()
	for _, p := range n.NeuronPools {
		v.pool(p)
	}
	for _, sp := range n.SynapsePools {
		v.synapse(sp)
	}
	for _, p := range n.Plasticities {
		v.plasticity(p)
	}
	for _, it := range n.Interfaces {
		v.iface(it)
	}
	return errors.Join(v.errs...)
}

func (v *validator) unique() {
	check := func(section string, names []string, pos []Pos) {
		seen := map[string]bool{}
		for i, nm := range names {
			if nm == "" {
				v.add(pos[i], nil, section, "", "", "", "item without a name")
				continue
			}
			if seen[nm] {
				v.add(pos[i], nil, section, nm, "", "", "duplicate name %q", nm)
			}
			seen[nm] = true
		}
	}
	var names []string
	var pos []Pos
	for _, p := range v.n.NeuronPools {
		names, pos = append(names, p.Name), append(pos, p.Pos)
	}
	check("neuron_pools", names, pos)
	names, pos = nil, nil
	for _, p := range v.n.SynapsePools {
		names, pos = append(names, p.Name), append(pos, p.Pos)
	}
	check("synapse_pools", names, pos)
	names, pos = nil, nil
	for _, p := range v.n.Plasticities {
		names, pos = append(names, p.Name), append(pos, p.Pos)
	}
	check("plasticities", names, pos)
	names, pos = nil, nil
	for _, p := range v.n.Interfaces {
		names, pos = append(names, p.Name), append(pos, p.Pos)
	}
	check("interfaces", names, pos)
}

func (v *validator) period(pos Pos, kp map[string]Pos, section, item string, period, offset int) {
	if period == 0 {
		period = 1 // the zero value of a Net built in Go
	}
	if period < 1 {
		v.add(pos, kp, section, item, "period", "", "period must be ≥ 1 (got %d)", period)
	} else if offset < 0 || offset >= period {
		v.add(pos, kp, section, item, "period offset", "", "offset must be in [0, period=%d) (got %d)", period, offset)
	}
}

func (v *validator) pool(p *NeuronPool) {
	const sec = "neuron_pools"
	add := func(key, sug, format string, args ...any) {
		v.add(p.Pos, p.KeyPos, sec, p.Name, key, sug, format, args...)
	}
	size := 1
	for i, d := range p.Shape {
		if d < 1 {
			add("shape", "", "shape %v: every entry must be ≥ 1 (entry %d is %d)", p.Shape, i, d)
			size = 0
			break
		}
		if size > maxPoolSize/d {
			add("shape", "", "shape %v: more than %d values per agent", p.Shape, maxPoolSize)
			size = 0
			break
		}
		size *= d
	}
	if msg, sug := actProblem(p.Act); msg != "" {
		add("act", sug, "%s", msg)
	}
	if p.BiasShape != "" && !slices.Contains(knownShapeModes, p.BiasShape) {
		add("bias_shape", suggest(p.BiasShape, knownShapeModes), "unknown bias shape %q", p.BiasShape)
	}
	if p.GainShape != "" && !slices.Contains(knownShapeModes, p.GainShape) {
		add("gain_shape", suggest(p.GainShape, knownShapeModes), "unknown gain shape %q", p.GainShape)
	}
	for _, nm := range []struct{ key, val string }{
		{"batchnorm_mean", p.BatchnormMean}, {"batchnorm_std", p.BatchnormStd},
		{"layernorm_mean", p.LayernormMean}, {"layernorm_std", p.LayernormStd},
	} {
		if nm.val != "" && !slices.Contains(knownNormModes, nm.val) {
			add(nm.key, suggest(nm.val, knownNormModes), "unknown normalisation mode %q", nm.val)
		}
	}
	if p.Noise != "" && !slices.Contains(knownNoise, p.Noise) {
		add("noise", suggest(p.Noise, knownNoise), "unknown noise %q", p.Noise)
	}
	if p.Noise == "normal" && !(p.NoiseStd >= 0) {
		add("noise std", "", "noise std must be ≥ 0 (got %g)", p.NoiseStd)
	}
	if p.Noise == "uniform" && !(p.NoiseMin <= p.NoiseMax) {
		add("noise min", "", "noise min %g must be ≤ noise max %g", p.NoiseMin, p.NoiseMax)
	}
	if !(p.Dropout >= 0 && p.Dropout < 1) {
		add("dropout", "", "dropout must be in [0, 1) (got %g)", p.Dropout)
	}
	if !(p.Zoneout >= 0 && p.Zoneout < 1) {
		add("zoneout", "", "zoneout must be in [0, 1) (got %g)", p.Zoneout)
	}
	v.period(p.Pos, p.KeyPos, sec, p.Name, p.Period, p.Offset)
	params := p.ParamShapes()
	for _, u := range p.Unshare {
		if u != "b" && u != "g" {
			add("unshare", "", "a neuron-pool's parameters are b and g, not %q", u)
		} else if _, ok := params[u]; !ok {
			add("unshare", "", "neuron-pool has no parameter %q (bias_shape / gain_shape is false)", u)
		}
	}
	for _, k := range []string{"b", "g"} {
		val, ok := p.Init[k]
		if !ok {
			continue
		}
		if _, has := params[k]; !has {
			add("init "+k, "", "neuron-pool has no parameter %q (bias_shape / gain_shape is false)", k)
		}
		if !checkInit(val) {
			add("init "+k, suggest(val, knownInits), "unknown initialiser %q", val)
		}
	}
	for k := range p.Init {
		if k != "b" && k != "g" {
			add("init "+k, "", "a neuron-pool's parameters are b and g, not %q", k)
		}
	}
}

// fit checks one spatial dimension of source extent s against target
// extent t and returns the upsampled source extent (s·t/s when t > s).
func fit(s, t int) (up int, ok bool) {
	switch {
	case s == t:
		return s, true
	case s > t && s%t == 0:
		return s, true
	case t > s && t%s == 0:
		return t, true
	}
	return 0, false
}

func (v *validator) synapse(sp *SynapsePool) {
	const sec = "synapse_pools"
	add := func(key, sug, format string, args ...any) {
		v.add(sp.Pos, sp.KeyPos, sec, sp.Name, key, sug, format, args...)
	}
	tgt := v.n.Pool(sp.Target)
	if tgt == nil {
		add("target", suggest(sp.Target, v.poolNames()), "no neuron-pool %q", sp.Target)
	}
	if len(sp.Source) == 0 {
		add("source", "", "source is empty: at least one factor with one summand is needed")
	}
	for f, fac := range sp.Source {
		if len(fac) == 0 {
			add("source", "", "factor %d has no summands", f)
		}
	}
	// Per-summand lists must match the source's factor/summand structure.
	lengths := func(key string, m int) bool {
		if m == 0 {
			return true
		}
		if m != len(sp.Source) {
			add(key, "", "%s has %d factors, source has %d", key, m, len(sp.Source))
			return false
		}
		return true
	}
	match := func(key string, x [][]int) bool {
		if !lengths(key, len(x)) {
			return false
		}
		for f := range x {
			if len(x[f]) != len(sp.Source[f]) {
				add(key, "", "%s factor %d has %d entries, source has %d", key, f, len(x[f]), len(sp.Source[f]))
				return false
			}
		}
		return true
	}
	match("rf", sp.RF)
	match("dilation", sp.Dilation)
	match("ppp", sp.PPP)
	if lengths("weight_fnc", len(sp.WeightFnc)) {
		perSourceNames(sp, "weight_fnc", sp.WeightFnc, knownWeightFncs, add, func(w string) string {
			if w == "" || w == "id" {
				return ""
			}
			return fmt.Sprintf("unknown weight function %q", w)
		})
	}
	if len(sp.Act) != 0 && len(sp.Act) != len(sp.Source) {
		add("act", "", "act has %d entries, one per factor is needed (%d factors)", len(sp.Act), len(sp.Source))
	}
	for _, a := range sp.Act {
		if msg, sug := actProblem(a); msg != "" {
			add("act", sug, "%s", msg)
		}
	}
	if msg, sug := actProblem(sp.ACT); msg != "" {
		add("ACT", sug, "%s", msg)
	}
	if lengths("pact", len(sp.Pact)) {
		for f := range sp.Pact {
			if len(sp.Pact[f]) != len(sp.Source[f]) {
				add("pact", "", "pact factor %d has %d entries, source has %d", f, len(sp.Pact[f]), len(sp.Source[f]))
				continue
			}
			for _, a := range sp.Pact[f] {
				if msg, sug := actProblem(a); msg != "" {
					add("pact", sug, "pre-activation: %s", msg)
				}
			}
		}
	}
	v.share(sp, add)
	if lengths("bias_shapes", len(sp.BiasShapes)) {
		for _, m := range sp.BiasShapes {
			if m != "" && !slices.Contains(knownShapeModes, m) {
				add("bias_shapes", suggest(m, knownShapeModes), "unknown bias shape %q", m)
			}
		}
	}
	v.shapes(sp, add, lengths)
	for _, u := range sp.Unshare {
		if msg := v.spParam(sp, u); msg != "" {
			add("unshare", "", "%s", msg)
		} else if _, shared := sp.Share[u]; shared {
			add("unshare", "", "%s is shared from %q (share params): whether it is unshared is that synapse-pool's setting", u, sp.Share[u].Item)
		}
	}
	for _, bound := range []struct {
		key string
		m   map[string]float64
	}{{"min", sp.Min}, {"max", sp.Max}} {
		keys := make([]string, 0, len(bound.m))
		for k := range bound.m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			key := bound.key + " " + k
			if msg := v.spParam(sp, k); msg != "" {
				add(key, "", "%s", msg)
				continue
			}
			if x := bound.m[k]; math.IsNaN(x) {
				add(key, "", "the bound is not a number")
			}
			if hi, ok := sp.Max[k]; ok && bound.key == "min" && bound.m[k] > hi {
				add(key, "", "min %g > max %g", bound.m[k], hi)
			}
		}
	}
	if sp.Noise != "" && !slices.Contains(knownNoise, sp.Noise) {
		add("noise", suggest(sp.Noise, knownNoise), "unknown noise %q", sp.Noise)
	}
	if sp.Avgout < 0 || sp.Maxout < 0 {
		add("avgout", "", "avgout and maxout must be ≥ 0 (got %d, %d)", sp.Avgout, sp.Maxout)
	}
	v.period(sp.Pos, sp.KeyPos, sec, sp.Name, sp.Period, sp.Offset)

	// Per summand: existence, rf/dilation/ppp values, spatial fit.
	for f, fac := range sp.Source {
		for a, name := range fac {
			src := v.n.Pool(name)
			if src == nil {
				add("source", suggest(name, v.poolNames()), "no neuron-pool %q (factor %d, summand %d)", name, f, a)
				continue
			}
			rf, dil, ppp := at(sp.RF, f, a, 0), at(sp.Dilation, f, a, 1), at(sp.PPP, f, a, 0)
			if rf < 0 {
				add("rf", "", "rf[%d][%d] must be ≥ 0 (0: dense), got %d", f, a, rf)
			}
			if dil < 1 {
				add("dilation", "", "dilation[%d][%d] must be ≥ 1, got %d", f, a, dil)
			}
			if ppp < 0 {
				add("ppp", "", "ppp[%d][%d] must be ≥ 0, got %d", f, a, ppp)
			}
			if tgt == nil || rf <= 0 || src.Shape[1] < 1 || src.Shape[2] < 1 || tgt.Shape[1] < 1 || tgt.Shape[2] < 1 {
				continue // dense: any source fits any target
			}
			upW, okW := fit(src.Shape[1], tgt.Shape[1])
			upH, okH := fit(src.Shape[2], tgt.Shape[2])
			if !okW || !okH {
				add("rf", "", "source %q (%d×%d) does not fit target %q (%d×%d) spatially: sizes must be equal or one an integer multiple of the other (stride or upsampling), or use rf 0 (dense)",
					name, src.Shape[1], src.Shape[2], sp.Target, tgt.Shape[1], tgt.Shape[2])
				continue
			}
			if rf%2 == 0 {
				add("rf", "", "rf[%d][%d] = %d: a convolution's receptive field must be odd", f, a, rf)
			} else if rf > max(upW, upH) {
				add("rf", "", "rf[%d][%d] = %d exceeds the (upsampled) extent %d×%d of source %q", f, a, rf, upW, upH, name)
			}
		}
	}

	// Inits: known values, existing parameters, id needs equal features.
	keys := make([]string, 0, len(sp.Init))
	for k := range sp.Init {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		val := sp.Init[k]
		key := "init " + k
		if !checkInit(val) {
			add(key, suggest(val, knownInits), "unknown initialiser %q", val)
		}
		if msg := v.spParam(sp, k); msg != "" {
			add(key, "", "%s", msg)
			continue
		}
		kind, f, a, _ := parseParamName(k)
		if kind == 'W' && isIdentityInit(val) && tgt != nil {
			if src := v.n.Pool(sp.Source[f][a]); src != nil {
				cin := src.Shape[0]
				if ppp := at(sp.PPP, f, a, 0); ppp > 0 {
					cin = ppp
				}
				cout := tgt.Shape[0] * max(sp.Avgout, 1) * max(sp.Maxout, 1)
				multiple := cin > 0 && cout > 0 && (cin%cout == 0 || cout%cin == 0)
				if (val == "id" || val == "Id") && !multiple {
					add(key, "", "init %q needs source and target features that are equal or multiples of each other, got %d (source %q) and %d (target %q)",
						val, cin, src.Name, cout, tgt.Name)
				} else if val != "id" && val != "Id" && cin != cout {
					add(key, "", "init %q needs equal source and target features, got %d (source %q) and %d (target %q)",
						val, cin, src.Name, cout, tgt.Name)
				}
			}
		}
	}
}

// knownFactorShapes are the modes of factor_shapes and target_shapes.
var knownFactorShapes = []string{"full", "feature", "spatial", "scalar"}

// fitsShape reports whether values of shape mode small repeat into shape
// mode big (full holds every mode; feature holds feature and scalar;
// spatial holds spatial and scalar; scalar only scalar).
func fitsShape(big, small string) bool {
	switch big {
	case "full":
		return true
	case "feature", "spatial":
		return small == big || small == "scalar"
	}
	return small == "scalar"
}

// perSourceNames checks a key that gives a name per source of each factor
// (weight_fnc, target_shapes): as many names as sources, each in known;
// unknown describes a name outside known ("" accepts it).
func perSourceNames(sp *SynapsePool, key string, names [][]string, known []string,
	add func(key, sug, format string, args ...any), unknown func(string) string) {
	for f := range names {
		if len(names[f]) != len(sp.Source[f]) {
			add(key, "", "%s factor %d has %d entries, source has %d", key, f, len(names[f]), len(sp.Source[f]))
			continue
		}
		for _, n := range names[f] {
			if slices.Contains(known, n) {
				continue
			}
			if msg := unknown(n); msg != "" {
				add(key, suggest(n, known), "%s", msg)
			}
		}
	}
}

// shapes checks factor_shapes, target_shapes and that each factor's bias
// fits its factor.
func (v *validator) shapes(sp *SynapsePool, add func(key, sug, format string, args ...any), lengths func(string, int) bool) {
	if lengths("factor_shapes", len(sp.FactorShapes)) {
		for _, m := range sp.FactorShapes {
			if !slices.Contains(knownFactorShapes, m) {
				add("factor_shapes", suggest(m, knownFactorShapes), "unknown factor shape %q (full, feature, spatial or scalar)", m)
			}
		}
	}
	if lengths("target_shapes", len(sp.TargetShapes)) {
		perSourceNames(sp, "target_shapes", sp.TargetShapes, knownFactorShapes, add, func(m string) string {
			return fmt.Sprintf("unknown target shape %q (full, feature, spatial or scalar)", m)
		})
	}
	for f, fac := range sp.Source {
		fs := sp.FactorShape(f)
		if !slices.Contains(knownFactorShapes, fs) {
			continue
		}
		for a := range fac {
			ts := sp.TargetShape(f, a)
			if !slices.Contains(knownFactorShapes, ts) {
				continue
			}
			if !fitsShape(fs, ts) {
				add("target_shapes", "", "summand %d of factor %d has target shape %s, which does not fit its factor's shape %s", a, f, ts, fs)
			}
			if (ts == "feature" || ts == "scalar") && at(sp.RF, f, a, 0) != 0 {
				key := "rf"
				if len(sp.TargetShapes) == 0 {
					key = "factor_shapes"
				}
				add(key, "", "summand %d of factor %d has shape %s: it is dense (rf 0), got rf %d", a, f, ts, at(sp.RF, f, a, 0))
			}
		}
		if f < len(sp.BiasShapes) {
			if b := sp.BiasShapes[f]; b != "" && b != "false" && slices.Contains(knownShapeModes, b) && !fitsShape(fs, b) {
				add("bias_shapes", "", "factor %d: a %s bias does not fit the factor's shape %s", f, b, fs)
			}
		}
	}
	if (len(sp.FactorShapes) > 0 || len(sp.TargetShapes) > 0) && max(sp.Avgout, 1)*max(sp.Maxout, 1) > 1 {
		add("factor_shapes", "", "factor_shapes / target_shapes with avgout or maxout are not supported")
	}
}

// isIdentityInit reports whether an initialiser is one of the identity
// family (id, Id, -id, -Id, id_X, Id_X).
func isIdentityInit(s string) bool {
	s = strings.TrimPrefix(s, "-")
	return s == "id" || s == "Id" || strings.HasPrefix(s, "id_") || strings.HasPrefix(s, "Id_")
}

// share checks a synapse-pool's shared parameters: each names one of its
// own parameters and an existing parameter of another synapse-pool, of
// the same shape, that itself is not shared.
func (v *validator) share(sp *SynapsePool, add func(key, sug, format string, args ...any)) {
	keys := make([]string, 0, len(sp.Share))
	for k := range sp.Share {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		r := sp.Share[k]
		if msg := v.spParam(sp, k); msg != "" {
			add("share params", "", "%s", msg)
			continue
		}
		if kind, _, _, _ := parseParamName(k); kind == 'b' {
			add("share params", "", "%s: only weights W_f_a and projections P_f_a can be shared", k)
			continue
		}
		o := v.n.SP(r.Item)
		if o == nil {
			var names []string
			for _, s := range v.n.SynapsePools {
				names = append(names, s.Name)
			}
			add("share params", suggest(r.Item, names), "%s: no synapse-pool %q", k, r.Item)
			continue
		}
		if o == sp {
			add("share params", "", "%s: a synapse-pool cannot share a parameter with itself", k)
			continue
		}
		if msg := v.spParam(o, r.Name); msg != "" {
			add("share params", "", "%s: %s", k, msg)
			continue
		}
		if _, chained := o.Share[r.Name]; chained {
			add("share params", "", "%s: %s of %q is itself shared; name the synapse-pool that owns it", k, r.Name, o.Name)
			continue
		}
		mine, err1 := sp.ParamShapes(v.n)
		theirs, err2 := o.ParamShapes(v.n)
		if err1 == nil && err2 == nil && !slices.Equal(mine[k], theirs[r.Name]) {
			add("share params", "", "%s has shape %v, %s of %q has shape %v: shared parameters need equal shapes",
				k, mine[k], r.Name, o.Name, theirs[r.Name])
		}
	}
}

// spParam returns "" when name is a parameter of sp (W_f_a for every
// summand, P_f_a where ppp > 0), else why not.
func (v *validator) spParam(sp *SynapsePool, name string) string {
	kind, f, a, ok := parseParamName(name)
	if !ok {
		return fmt.Sprintf("synapse-pool %q has no parameter %q (parameters are W_f_a and P_f_a)", sp.Name, name)
	}
	if f >= len(sp.Source) || a >= len(sp.Source[f]) {
		return fmt.Sprintf("synapse-pool %q has no parameter %q: no factor %d summand %d", sp.Name, name, f, a)
	}
	if kind == 'P' && at(sp.PPP, f, a, 0) <= 0 {
		return fmt.Sprintf("synapse-pool %q has no parameter %q: ppp[%d][%d] is 0", sp.Name, name, f, a)
	}
	if kind == 'b' && (f >= len(sp.BiasShapes) || sp.BiasShapes[f] == "" || sp.BiasShapes[f] == "false") {
		return fmt.Sprintf("synapse-pool %q has no parameter %q: bias_shapes gives factor %d no bias", sp.Name, name, f)
	}
	return ""
}

func (v *validator) plasticity(p *Plasticity) {
	const sec = "plasticities"
	add := func(key, sug, format string, args ...any) {
		v.add(p.Pos, p.KeyPos, sec, p.Name, key, sug, format, args...)
	}
	typeOK := slices.Contains(knownPlastTypes, p.Type)
	if !typeOK {
		add("type", suggest(p.Type, knownPlastTypes), "unknown plasticity type %q", p.Type)
	}
	if p.Optimizer != "" && !slices.Contains(knownOptimizers, p.Optimizer) {
		add("optimizer", suggest(p.Optimizer, knownOptimizers), "unknown optimizer %q", p.Optimizer)
	}
	if !(p.LR >= 0) {
		add("lr", "", "lr must be ≥ 0 (got %g)", p.LR)
	}
	if !(p.Momentum >= 0 && p.Momentum < 1) {
		add("momentum", "", "momentum must be in [0, 1) (got %g)", p.Momentum)
	}
	if !(p.Decay >= 0 && p.Decay < 1) {
		add("decay", "", "decay must be in [0, 1) (got %g)", p.Decay)
	}
	if !(p.Rho >= 0 && p.Rho < 1) {
		add("rho", "", "rho must be in [0, 1) (got %g)", p.Rho)
	}
	if p.StartFrame < 0 {
		add("start_frame", "", "start_frame must be ≥ 0 (got %d)", p.StartFrame)
	}
	v.period(p.Pos, p.KeyPos, sec, p.Name, p.Period, p.Offset)
	poolOK := true
	needPool := func(key, name string) {
		if v.n.Pool(name) == nil {
			poolOK = false
			add(key, suggest(name, v.poolNames()), "no neuron-pool %q", name)
		}
	}
	if len(p.Params) == 0 {
		add("parameter", "", "no parameters to update")
	}
	for _, r := range p.Params {
		v.paramRef(p, r)
	}
	switch {
	case p.Type == "loss":
		if !slices.Contains(knownLosses, p.LossFunction) {
			add("loss_function", suggest(p.LossFunction, knownLosses), "unknown loss function %q", p.LossFunction)
		}
		needPool("source", p.Source)
		if p.LossFunction != "minimize" && p.LossFunction != "maximize" {
			needPool("target", p.Target)
		}
		if p.Mask != "" {
			needPool("mask", p.Mask)
		}
		if p.SourceT < 0 || p.SourceT > maxRolloutDepth {
			add("source_t", "", "source_t must be in [0, %d] (got %d)", maxRolloutDepth, p.SourceT)
			poolOK = false
		}
		if p.TargetT < 0 || p.TargetT > maxRolloutDepth {
			add("target_t", "", "target_t must be in [0, %d] (got %d)", maxRolloutDepth, p.TargetT)
			poolOK = false
		}
	case strings.HasSuffix(p.Type, "hebbian") && typeOK:
		v.hebbian(p, add)
		poolOK = v.n.Pool(p.Source) != nil && v.n.Pool(p.Target) != nil
	case p.Type == "L_regularizer":
		if !(p.L1 >= 0) || !(p.L2 >= 0) {
			add("L1", "", "L1 and L2 must be ≥ 0 (got %g, %g)", p.L1, p.L2)
		}
	}
	if typeOK && poolOK {
		if _, err := v.n.Rollout(p); err != nil {
			v.add(p.Pos, nil, sec, p.Name, "", "", "%s", strings.TrimPrefix(err.Error(), "stream: "))
		}
	}
}

// hebbian checks a Hebbian plasticity: its Params name exactly one
// synapse-pool parameter, W_0_0 of a synapse-pool with one factor of one
// dense summand (rf 0) between pools of spatial size 1×1; Source and
// Target are that synapse-pool's source and target (the loader fills them
// in from the parameter list when the file leaves them out).
func (v *validator) hebbian(p *Plasticity, add func(key, sug, format string, args ...any)) {
	var sps []ParamRef
	for _, r := range p.Params {
		if r.Kind == "sp" {
			sps = append(sps, r)
		}
	}
	if len(sps) != 1 {
		add("parameter", "", "a %s plasticity updates exactly one synapse-pool parameter (got %d)", p.Type, len(sps))
		return
	}
	sp := v.n.SP(sps[0].Item)
	if sp == nil {
		return // reported by paramRef
	}
	if sps[0].Name != "W_0_0" || len(sp.Source) != 1 || len(sp.Source[0]) != 1 || at(sp.RF, 0, 0, 0) != 0 || at(sp.PPP, 0, 0, 0) != 0 {
		add("parameter", "", "a %s plasticity needs W_0_0 of a synapse-pool with one dense summand (rf 0, no ppp); %q is not one", p.Type, sp.Name)
		return
	}
	for _, nm := range []string{sp.Source[0][0], sp.Target} {
		if np := v.n.Pool(nm); np != nil && (np.Shape[1] != 1 || np.Shape[2] != 1) {
			add("parameter", "", "a %s plasticity needs pools without spatial extent; %q is %d×%d", p.Type, nm, np.Shape[1], np.Shape[2])
		}
	}
	if p.Source != sp.Source[0][0] || p.Target != sp.Target {
		add("source", "", "source/target (%q, %q) must be the synapse-pool's source and target (%q, %q)", p.Source, p.Target, sp.Source[0][0], sp.Target)
	}
}

func (v *validator) paramRef(p *Plasticity, r ParamRef) {
	bad := func(sug, format string, args ...any) {
		pos := r.Pos
		if pos == (Pos{}) {
			pos = p.Pos
		}
		v.add(pos, nil, "plasticities", p.Name, "parameter", sug, format, args...)
	}
	switch r.Kind {
	case "np":
		np := v.n.Pool(r.Item)
		if np == nil {
			bad(suggest(r.Item, v.poolNames()), "no neuron-pool %q", r.Item)
			return
		}
		if _, ok := np.ParamShapes()[r.Name]; !ok {
			bad("", "neuron-pool %q has no parameter %q (b exists unless bias_shape is false, g only with a gain_shape)", r.Item, r.Name)
		}
	case "sp":
		sp := v.n.SP(r.Item)
		if sp == nil {
			var names []string
			for _, s := range v.n.SynapsePools {
				names = append(names, s.Name)
			}
			bad(suggest(r.Item, names), "no synapse-pool %q", r.Item)
			return
		}
		if msg := v.spParam(sp, r.Name); msg != "" {
			bad("", "%s", msg)
		}
	default:
		bad(suggest(r.Kind, []string{"np", "sp"}), "parameter kind must be np or sp, got %q", r.Kind)
	}
}

func (v *validator) iface(it *Interface) {
	if it.Period != 0 { // 0: the default 1 (the field is newer than the type)
		v.period(it.Pos, it.KeyPos, "interfaces", it.Name, it.Period, it.Offset)
	} else if it.Offset != 0 {
		v.period(it.Pos, it.KeyPos, "interfaces", it.Name, 1, it.Offset)
	}
	for _, l := range []struct {
		key   string
		names []string
	}{{"in", it.In}, {"out", it.Out}} {
		for _, nm := range l.names {
			pool := it.PoolName(nm)
			if v.n.Pool(pool) == nil {
				key := l.key
				if pool != nm {
					key = "remap"
				}
				v.add(it.Pos, it.KeyPos, "interfaces", it.Name, key, suggest(pool, v.poolNames()),
					"%q maps to neuron-pool %q, which does not exist", nm, pool)
			}
		}
	}
}
