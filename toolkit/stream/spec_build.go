package stream

import (
	"errors"
	"math"
	"slices"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// field is the context of one key being decoded.
type field struct {
	l            *loader
	sec, item    string
	kv           rawKV
	keyForErrors string
}

func (l *loader) field(sec, item string, kv rawKV) field {
	return field{l: l, sec: sec, item: item, kv: kv, keyForErrors: kv.key}
}

func (f field) errAt(n *yaml.Node, format string, args ...any) {
	f.l.errAt(f.l.pos(f.kv.file, n), f.sec, f.item, f.keyForErrors, "", format, args...)
}

// number evaluates a scalar node as a number or an expression of globals
// (see Eval); an expression error points at the offending token's column.
func (l *loader) number(kv rawKV, n *yaml.Node, sec, item, key string) (float64, bool) {
	v, err := l.evalNode(kv, n, sec, item, key, false)
	return v, err
}

func (l *loader) evalNode(kv rawKV, n *yaml.Node, sec, item, key string, integer bool) (float64, bool) {
	pos := l.pos(kv.file, n)
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" || n.Tag == "!!bool" {
		what := "a number"
		if integer {
			what = "an integer"
		}
		l.errAt(pos, sec, item, key, "", "expected %s, got a %s", what, kindName(n))
		return 0, false
	}
	var v float64
	var err error
	if integer {
		var i int
		i, err = evalInt(n.Value, l.globals)
		v = float64(i)
	} else {
		v, err = Eval(n.Value, l.globals)
	}
	if err != nil {
		var ee *ExprError
		if errors.As(err, &ee) && n.Style == 0 && !strings.Contains(n.Value, "\n") {
			pos.Col += ee.Col - 1
		}
		l.errAt(pos, sec, item, key, "", "%s", err.Error())
		return 0, false
	}
	return v, true
}

func (f field) num(n *yaml.Node) (float64, bool) {
	return f.l.evalNode(f.kv, n, f.sec, f.item, f.keyForErrors, false)
}

func (f field) int(n *yaml.Node) (int, bool) {
	v, ok := f.l.evalNode(f.kv, n, f.sec, f.item, f.keyForErrors, true)
	return int(v), ok
}

func (f field) str(n *yaml.Node) (string, bool) {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		f.errAt(n, "expected a name, got a %s", kindName(n))
		return "", false
	}
	return n.Value, true
}

// mode reads a shape or normalisation mode: a name, or the boolean false
// (statestream writes False for "no bias" / "off"), kept as "false".
func (f field) mode(n *yaml.Node) (string, bool) {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!bool" {
		if strings.EqualFold(n.Value, "false") {
			return "false", true
		}
		f.errAt(n, "expected a shape mode or False, got %s", n.Value)
		return "", false
	}
	return f.str(n)
}

// common reads the keys every item kind has — tags, period, period
// offset and (except interfaces, device nil) device — and reports whether
// key was one of them.
func (f field) common(key string, n *yaml.Node, tags *[]string, period, offset *int, device *string) bool {
	switch {
	case key == "tags":
		*tags, _ = f.strs(n)
	case key == "period":
		*period, _ = f.int(n)
	case key == "period offset":
		*offset, _ = f.int(n)
	case key == "device" && device != nil:
		*device, _ = f.str(n)
	default:
		return false
	}
	return true
}

func (f field) strs(n *yaml.Node) ([]string, bool) {
	if n.Kind != yaml.SequenceNode {
		f.errAt(n, "expected a list of names, got a %s", kindName(n))
		return nil, false
	}
	out := []string{}
	ok := true
	for _, c := range n.Content {
		s, k := f.str(c)
		ok = ok && k
		out = append(out, s)
	}
	return out, ok
}

func (f field) strss(n *yaml.Node) ([][]string, bool) {
	if n.Kind != yaml.SequenceNode {
		f.errAt(n, "expected a list of lists of names (e.g. [[a, b], [c]]), got a %s", kindName(n))
		return nil, false
	}
	out := [][]string{}
	ok := true
	for _, c := range n.Content {
		if c.Kind != yaml.SequenceNode {
			f.errAt(c, "expected a list of names for each factor (e.g. [[a, b], [c]]), got a %s", kindName(c))
			ok = false
			continue
		}
		s, k := f.strs(c)
		ok = ok && k
		out = append(out, s)
	}
	return out, ok
}

// intss reads a list of lists of integers; a single integer is returned
// as scalar (broadcast to every summand once the source is known).
func (f field) intss(n *yaml.Node) (x [][]int, scalar *int, ok bool) {
	if n.Kind == yaml.ScalarNode {
		v, ok := f.int(n)
		return nil, &v, ok
	}
	if n.Kind != yaml.SequenceNode {
		f.errAt(n, "expected an integer or a list of lists of integers, got a %s", kindName(n))
		return nil, nil, false
	}
	ok = true
	x = [][]int{}
	for _, c := range n.Content {
		if c.Kind != yaml.SequenceNode {
			f.errAt(c, "expected a list of integers for each factor, got a %s", kindName(c))
			ok = false
			continue
		}
		row := []int{}
		for _, e := range c.Content {
			v, k := f.int(e)
			ok = ok && k
			row = append(row, v)
		}
		x = append(x, row)
	}
	return x, nil, ok
}

func decodeAny(n *yaml.Node) any {
	var v any
	if err := n.Decode(&v); err != nil {
		return n.Value
	}
	return v
}

func keyPos(it *rawItem) map[string]Pos {
	m := make(map[string]Pos, len(it.kvs))
	for _, kv := range it.kvs {
		m[kv.key] = kv.kpos
	}
	return m
}

// build turns the merged raw description into a Net with defaults.
func (l *loader) build(raw *rawNet) *Net {
	n := &Net{Agents: 1, Globals: l.globals, Pos: Pos{File: raw.file, Line: 1, Col: 1},
		TagSpecs: map[string]map[string]any{}}
	if raw.name != nil {
		if s, ok := l.field("", "", *raw.name).str(raw.name.val); ok {
			n.Name = s
		}
	}
	if raw.agents != nil {
		if v, ok := l.field("", "", *raw.agents).int(raw.agents.val); ok {
			n.Agents = v
		}
	}
	for _, it := range raw.sections[secTags].items {
		m := map[string]any{}
		for _, kv := range it.kvs {
			m[kv.key] = decodeAny(kv.val)
		}
		n.TagSpecs[it.name] = m
	}
	if cc := raw.sections[secCC].items; len(cc) > 0 {
		n.CoreClients = map[string]map[string]any{}
		for _, it := range cc {
			m := map[string]any{}
			for _, kv := range it.kvs {
				m[kv.key] = decodeAny(kv.val)
			}
			n.CoreClients[it.name] = m
		}
	}
	for _, it := range raw.sections[secNP].items {
		n.NeuronPools = append(n.NeuronPools, l.buildNP(it))
	}
	for _, it := range raw.sections[secSP].items {
		n.SynapsePools = append(n.SynapsePools, l.buildSP(it))
	}
	for _, it := range raw.sections[secPL].items {
		n.Plasticities = append(n.Plasticities, l.buildPL(it))
	}
	for _, it := range raw.sections[secIF].items {
		n.Interfaces = append(n.Interfaces, l.buildIF(it))
	}
	// A Hebbian plasticity names its synapse-pool through its parameter
	// list; source and target default to that synapse-pool's.
	for _, p := range n.Plasticities {
		if !strings.HasSuffix(p.Type, "hebbian") || len(p.Params) != 1 || p.Params[0].Kind != "sp" {
			continue
		}
		if sp := n.SP(p.Params[0].Item); sp != nil && len(sp.Source) == 1 && len(sp.Source[0]) == 1 {
			if p.Source == "" {
				p.Source = sp.Source[0][0]
			}
			if p.Target == "" {
				p.Target = sp.Target
			}
		}
	}
	return n
}

// noise reads the noise keys shared by neuron- and synapse-pools.
func (f field) noise(kind *string, mean, std, lo, hi *float64) {
	n := f.kv.val
	switch f.kv.key {
	case "noise":
		if s, ok := f.str(n); ok {
			*kind = s
		}
	case "noise mean":
		if v, ok := f.num(n); ok {
			*mean = v
		}
	case "noise std":
		if v, ok := f.num(n); ok {
			*std = v
		}
	case "noise min":
		if v, ok := f.num(n); ok {
			*lo = v
		}
	case "noise max":
		if v, ok := f.num(n); ok {
			*hi = v
		}
	}
}

func (l *loader) buildNP(it *rawItem) *NeuronPool {
	p := &NeuronPool{Name: it.name, Shape: [3]int{1, 1, 1}, Act: "Id", BiasShape: "feature",
		GainShape: "false", Period: 1, NoiseStd: 1, NoiseMin: -1, NoiseMax: 1,
		Pos: it.pos, KeyPos: keyPos(it)}
	for _, kv := range it.kvs {
		f := l.field(secNP, it.name, kv)
		n := kv.val
		if f.common(kv.key, n, &p.Tags, &p.Period, &p.Offset, &p.Device) {
			continue
		}
		switch kv.key {
		case "shape":
			if n.Kind != yaml.SequenceNode || len(n.Content) != 3 {
				f.errAt(n, "shape is [features, width, height], got a %s", kindName(n))
				continue
			}
			for i, c := range n.Content {
				if v, ok := f.int(c); ok {
					p.Shape[i] = v
				}
			}
		case "act":
			p.Act, _ = f.str(n)
		case "noise", "noise mean", "noise std", "noise min", "noise max":
			f.noise(&p.Noise, &p.NoiseMean, &p.NoiseStd, &p.NoiseMin, &p.NoiseMax)
		case "dropout":
			p.Dropout, _ = f.num(n)
		case "zoneout":
			p.Zoneout, _ = f.num(n)
		case "bias_shape":
			p.BiasShape, _ = f.mode(n)
		case "gain_shape":
			p.GainShape, _ = f.mode(n)
		case "batchnorm_mean":
			p.BatchnormMean, _ = f.mode(n)
		case "batchnorm_std":
			p.BatchnormStd, _ = f.mode(n)
		case "layernorm_mean":
			p.LayernormMean, _ = f.mode(n)
		case "layernorm_std":
			p.LayernormStd, _ = f.mode(n)
		case "init b", "init g":
			if s, ok := f.str(n); ok {
				if p.Init == nil {
					p.Init = map[string]string{}
				}
				p.Init[strings.TrimPrefix(kv.key, "init ")] = s
			}
		case "unshare":
			p.Unshare, _ = f.names(n)
		}
	}
	return p
}

// names reads a list of names, or a single name as a list of one.
func (f field) names(n *yaml.Node) ([]string, bool) {
	if n.Kind == yaml.ScalarNode {
		s, ok := f.str(n)
		return []string{s}, ok
	}
	return f.strs(n)
}

func (l *loader) buildSP(it *rawItem) *SynapsePool {
	sp := &SynapsePool{Name: it.name, ACT: "Id", Period: 1, NoiseStd: 1, NoiseMin: -1, NoiseMax: 1,
		Pos: it.pos, KeyPos: keyPos(it)}
	var rfS, dilS, pppS *int
	var actS, pactS *string
	for _, kv := range it.kvs {
		f := l.field(secSP, it.name, kv)
		n := kv.val
		if f.common(kv.key, n, &sp.Tags, &sp.Period, &sp.Offset, &sp.Device) {
			continue
		}
		switch {
		case kv.key == "source":
			sp.Source, _ = f.strss(n)
		case kv.key == "target":
			sp.Target, _ = f.str(n)
		case kv.key == "rf":
			sp.RF, rfS, _ = f.intss(n)
		case kv.key == "dilation":
			sp.Dilation, dilS, _ = f.intss(n)
		case kv.key == "ppp":
			sp.PPP, pppS, _ = f.intss(n)
		case kv.key == "act":
			if n.Kind == yaml.ScalarNode {
				if s, ok := f.str(n); ok {
					actS = &s
				}
			} else {
				sp.Act, _ = f.strs(n)
			}
		case kv.key == "ACT":
			sp.ACT, _ = f.str(n)
		case kv.key == "pact":
			if n.Kind == yaml.ScalarNode {
				if s, ok := f.str(n); ok {
					pactS = &s
				}
			} else {
				sp.Pact, _ = f.strss(n)
			}
		case kv.key == "share params":
			sp.Share = f.share(n)
		case kv.key == "bias_shapes":
			if n.Kind != yaml.SequenceNode {
				f.errAt(n, "bias_shapes is a list of one shape mode per factor (full, feature, spatial, scalar), got a %s", kindName(n))
				continue
			}
			for _, c := range n.Content {
				m := "false" // null or None: no bias for this factor, as in statestream
				if !isNull(c) && c.Value != "None" {
					m, _ = f.mode(c)
				}
				sp.BiasShapes = append(sp.BiasShapes, m)
			}
		case kv.key == "weight_fnc":
			sp.WeightFnc, _ = f.strss(n)
		case strings.HasPrefix(kv.key, "noise"):
			f.noise(&sp.Noise, &sp.NoiseMean, &sp.NoiseStd, &sp.NoiseMin, &sp.NoiseMax)
		case kv.key == "unshare":
			sp.Unshare, _ = f.names(n)
		case kv.key == "factor_shapes":
			sp.FactorShapes, _ = f.names(n)
		case kv.key == "target_shapes":
			sp.TargetShapes, _ = f.strss(n)
		case strings.HasPrefix(kv.key, "min ") || strings.HasPrefix(kv.key, "max "):
			if v, ok := f.num(n); ok {
				name := strings.TrimSpace(kv.key[4:])
				m := &sp.Min
				if kv.key[:3] == "max" {
					m = &sp.Max
				}
				if *m == nil {
					*m = map[string]float64{}
				}
				(*m)[name] = v
			}
		case kv.key == "avgout":
			sp.Avgout, _ = f.int(n)
		case kv.key == "maxout":
			sp.Maxout, _ = f.int(n)
		case strings.HasPrefix(kv.key, "init "):
			if s, ok := f.str(n); ok {
				if sp.Init == nil {
					sp.Init = map[string]string{}
				}
				sp.Init[strings.TrimSpace(strings.TrimPrefix(kv.key, "init "))] = s
			}
		}
	}
	// A single rf / dilation / ppp applies to every summand; a single act
	// to every factor.
	broadcast := func(v *int) [][]int {
		out := make([][]int, len(sp.Source))
		for i, fac := range sp.Source {
			out[i] = make([]int, len(fac))
			for j := range fac {
				out[i][j] = *v
			}
		}
		return out
	}
	if rfS != nil {
		sp.RF = broadcast(rfS)
	}
	if dilS != nil {
		sp.Dilation = broadcast(dilS)
	}
	if pppS != nil {
		sp.PPP = broadcast(pppS)
	}
	if pactS != nil {
		sp.Pact = make([][]string, len(sp.Source))
		for i, fac := range sp.Source {
			sp.Pact[i] = make([]string, len(fac))
			for j := range fac {
				sp.Pact[i][j] = *pactS
			}
		}
	}
	if actS != nil {
		sp.Act = make([]string, len(sp.Source))
		for i := range sp.Act {
			sp.Act[i] = *actS
		}
	}
	if _, ok := it.get("source"); !ok {
		l.errAt(it.pos, secSP, it.name, "source", "", "missing key source")
	}
	if _, ok := it.get("target"); !ok {
		l.errAt(it.pos, secSP, it.name, "target", "", "missing key target")
	}
	return sp
}

func (l *loader) buildPL(it *rawItem) *Plasticity {
	p := &Plasticity{Name: it.name, Optimizer: "grad_desc", Momentum: 0.9, Decay: 0.999, Rho: 0.9,
		Period: 1, Pos: it.pos, KeyPos: keyPos(it)}
	var modus string
	for _, kv := range it.kvs {
		f := l.field(secPL, it.name, kv)
		n := kv.val
		if f.common(kv.key, n, &p.Tags, &p.Period, &p.Offset, &p.Device) {
			continue
		}
		switch kv.key {
		case "type":
			if s, ok := f.str(n); ok {
				p.Type = strings.ReplaceAll(s, " ", "_")
			}
		case "modus":
			if s, ok := f.str(n); ok {
				modus = strings.ReplaceAll(s, " ", "_")
			}
		case "loss_function":
			p.LossFunction, _ = f.str(n)
			// statestream's code spells these MSE and MAE
			// (statestream/meta/losses.py), its docs and the model mse, mae.
			if p.LossFunction == "MSE" || p.LossFunction == "MAE" {
				p.LossFunction = strings.ToLower(p.LossFunction)
			}
		case "source":
			p.Source, _ = f.str(n)
		case "source_t":
			p.SourceT, _ = f.int(n)
		case "target":
			p.Target, _ = f.str(n)
		case "target_t":
			p.TargetT, _ = f.int(n)
		case "mask":
			p.Mask, _ = f.str(n)
		case "parameter":
			p.Params = f.params(n)
		case "L1":
			p.L1, _ = f.num(n)
		case "L2":
			p.L2, _ = f.num(n)
		case "optimizer":
			p.Optimizer, _ = f.str(n)
		case "lr":
			p.LR, _ = f.num(n)
		case "momentum":
			p.Momentum, _ = f.num(n)
		case "decay":
			p.Decay, _ = f.num(n)
		case "rho":
			p.Rho, _ = f.num(n)
		case "start_frame":
			p.StartFrame, _ = f.int(n)
		}
	}
	// statestream's Hebbian example writes type: hebbian with the variant
	// in "modus" (examples/test_plasticity_hebbian.st_graph).
	if modus != "" {
		kp := it.pos
		if kv, ok := it.get("modus"); ok {
			kp = kv.kpos
		}
		if p.Type != "hebbian" || !slices.Contains([]string{"hebbian", "anti_hebbian", "dt_hebbian", "dt_anti_hebbian"}, modus) {
			l.errAt(kp, secPL, it.name, "modus", "", "modus %q needs type hebbian and one of hebbian, anti_hebbian, dt_hebbian, dt_anti_hebbian", modus)
		} else {
			p.Type = modus
		}
	}
	for _, k := range []string{"type", "parameter", "lr"} {
		if _, ok := it.get(k); !ok {
			l.errAt(it.pos, secPL, it.name, k, "", "missing key %s", k)
		}
	}
	if _, ok := it.get("loss_function"); !ok && p.Type == "loss" {
		l.errAt(it.pos, secPL, it.name, "loss_function", "", "missing key loss_function")
	}
	return p
}

// share reads a synapse-pool's "share params": a mapping of its parameter
// names to [synapse-pool, parameter] pairs.
func (f field) share(n *yaml.Node) map[string]ParamRef {
	if n.Kind != yaml.MappingNode {
		f.errAt(n, "share params is a mapping of parameter names to [synapse-pool, parameter], e.g. W_0_0: [other, W_0_0], got a %s", kindName(n))
		return nil
	}
	out := map[string]ParamRef{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		name, ok := f.str(k)
		if !ok {
			continue
		}
		if v.Kind != yaml.SequenceNode || len(v.Content) != 2 {
			f.errAt(v, "a shared parameter is [synapse-pool, parameter], e.g. [other, W_0_0], got a %s", kindName(v))
			continue
		}
		item, ok1 := f.str(v.Content[0])
		par, ok2 := f.str(v.Content[1])
		if ok1 && ok2 {
			out[name] = ParamRef{Kind: "sp", Item: item, Name: par, Pos: f.l.pos(f.kv.file, v)}
		}
	}
	return out
}

// params reads a plasticity's parameter list: entries [np, pool, b|g] or
// [sp, synapse-pool, W_f_a|P_f_a].
func (f field) params(n *yaml.Node) []ParamRef {
	if n.Kind != yaml.SequenceNode {
		f.errAt(n, "parameter is a list of [np|sp, item, parameter] entries, got a %s", kindName(n))
		return nil
	}
	var out []ParamRef
	for _, e := range n.Content {
		if e.Kind != yaml.SequenceNode || len(e.Content) != 3 {
			f.errAt(e, "a parameter is [np|sp, item, parameter], e.g. [sp, c1_pred, W_0_0]")
			continue
		}
		var s [3]string
		ok := true
		for i, c := range e.Content {
			v, k := f.str(c)
			s[i], ok = v, ok && k
		}
		if ok {
			out = append(out, ParamRef{Kind: s[0], Item: s[1], Name: s[2], Pos: f.l.pos(f.kv.file, e)})
		}
	}
	return out
}

func (l *loader) buildIF(it *rawItem) *Interface {
	in := &Interface{Name: it.name, Remap: map[string]string{}, Params: map[string]any{}, Period: 1,
		Pos: it.pos, KeyPos: keyPos(it)}
	for _, kv := range it.kvs {
		f := l.field(secIF, it.name, kv)
		n := kv.val
		if f.common(kv.key, n, &in.Tags, &in.Period, &in.Offset, nil) {
			continue
		}
		switch kv.key {
		case "type":
			in.Type, _ = f.str(n)
		case "in":
			in.In, _ = f.strs(n)
		case "out":
			in.Out, _ = f.strs(n)
		case "remap":
			if isNull(n) {
				continue
			}
			if n.Kind != yaml.MappingNode {
				f.errAt(n, "remap is a mapping of interface names to neuron-pool names, got a %s", kindName(n))
				continue
			}
			for i := 0; i+1 < len(n.Content); i += 2 {
				k, ok1 := f.str(n.Content[i])
				v, ok2 := f.str(n.Content[i+1])
				if ok1 && ok2 {
					in.Remap[k] = v
				}
			}
		default:
			in.Params[kv.key] = l.paramValue(n)
		}
	}
	if _, ok := it.get("type"); !ok {
		l.errAt(it.pos, secIF, it.name, "type", "", "missing key type")
	}
	return in
}

// paramValue decodes an interface parameter; a plain string scalar that is
// an expression of globals (e.g. min_duration: glob_dur * 2) becomes its
// value, as statestream substitutes globals into interfaces too: an int
// when whole, else a float64. Anything else is kept as YAML decodes it.
func (l *loader) paramValue(n *yaml.Node) any {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!str" && n.Style == 0 {
		if v, err := Eval(n.Value, l.globals); err == nil {
			if v == math.Trunc(v) && math.Abs(v) < 1<<53 {
				return int(v)
			}
			return v
		}
	}
	return decodeAny(n)
}
