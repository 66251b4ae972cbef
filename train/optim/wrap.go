package optim

import (
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/neurogo/neurogo/toolkit/layers"
)

// Clip clips the gradients before delegating to Opt, as Keras's
// global_clipnorm and clipvalue optimiser arguments (TensorFlow 2 docs,
// tf.keras.optimizers.Optimizer), in that order:
//
//	MaxNorm > 0:   n = √(Σ over all vars of Σ g²); if n > MaxNorm, g ← g·MaxNorm/n
//	               (tf.clip_by_global_norm)
//	MaxValue > 0:  g ← min(max(g, −MaxValue), MaxValue)
//
// Clip modifies the Grads in place. Its state is Opt's state. Use a *Clip.
type Clip struct {
	Opt      Optimizer
	MaxNorm  float64 // global L2 norm bound; 0: off
	MaxValue float64 // element-wise bound; 0: off
}

// Name is "Clip(<inner name>)".
func (c *Clip) Name() string {
	if c.Opt == nil {
		return "Clip(<nil>)"
	}
	return "Clip(" + c.Opt.Name() + ")"
}

func (c *Clip) check(step int) error {
	if c.Opt == nil {
		return fmt.Errorf("optim: Clip: Opt is nil, must be an optimiser")
	}
	if err := validHyper("Clip", "MaxNorm", c.MaxNorm, 0, math.Inf(1), false); err != nil {
		return err
	}
	if err := validHyper("Clip", "MaxValue", c.MaxValue, 0, math.Inf(1), false); err != nil {
		return err
	}
	if ch, ok := c.Opt.(checker); ok {
		return ch.check(step)
	}
	return nil
}

// Step clips every Grad and then calls Opt.Step. Nothing is modified when
// a hyper-parameter, a length or a gradient is invalid.
func (c *Clip) Step(vars []*Var, step int) error {
	if err := c.check(step); err != nil {
		return err
	}
	if err := checkVars("Clip", vars, step); err != nil {
		return err
	}
	if c.MaxNorm > 0 {
		// Scaled by the largest magnitude so Σg² cannot overflow.
		big := 0.0
		for _, v := range vars {
			for _, g := range v.Grad {
				big = math.Max(big, math.Abs(g))
			}
		}
		if big > 0 {
			ss := 0.0
			for _, v := range vars {
				for _, g := range v.Grad {
					ss += (g / big) * (g / big)
				}
			}
			if n := big * math.Sqrt(ss); n > c.MaxNorm {
				f := c.MaxNorm / n
				for _, v := range vars {
					for j := range v.Grad {
						v.Grad[j] *= f
					}
				}
			}
		}
	}
	if mv := c.MaxValue; mv > 0 {
		for _, v := range vars {
			for j, g := range v.Grad {
				v.Grad[j] = min(max(g, -mv), mv)
			}
		}
	}
	return c.Opt.Step(vars, step)
}

// State is Opt's state.
func (c *Clip) State() map[string][]float64 {
	if c.Opt == nil {
		return map[string][]float64{}
	}
	return c.Opt.State()
}

// SetState restores Opt's state.
func (c *Clip) SetState(m map[string][]float64) error {
	if c.Opt == nil {
		return fmt.Errorf("optim: Clip: SetState: Opt is nil, must be an optimiser")
	}
	return c.Opt.SetState(m)
}

// Rule sends the vars it matches to Opt (see Multi). A rule selects by
// exactly one of: Owner, the model object the parameters belong to (a
// *toolkit.Node of a layer, a *toolkit.Ensemble, a *toolkit.Connection,
// compared with Var.Owner by identity); Role, what a layer parameter is
// (Var.Param.Role, e.g. layers.RoleBias); or Match, the labels and kinds
// a user writes, as neon's MultiOptimizer maps layer names and types: a
// Kind, a Name, or a Name prefix ending before a ".".
type Rule struct {
	Match string
	Owner any
	Role  layers.Role
	Opt   Optimizer
}

// matches reports whether r selects v.
func (r *Rule) matches(v *Var) bool {
	switch {
	case r.Owner != nil:
		return v.Owner == r.Owner
	case r.Role != layers.RoleOther:
		return v.Param != nil && v.Param.Role == r.Role
	}
	k := len(r.Match)
	return r.Match == v.Kind || r.Match == v.Name ||
		(len(v.Name) > k && v.Name[k] == '.' && v.Name[:k] == r.Match)
}

// Multi routes each var to an optimiser, as neon's MultiOptimizer maps
// layer names and types to optimisers (neon's design notes, "optimizers
// per layer").
// A var goes to the first rule that selects it: by Owner (the object, e.g.
// the layer's node), by Role (e.g. every layers.RoleBias parameter), or
// by Match, which equals its Kind or its Name, or is a prefix of its Name
// followed by "." ("conv1" matches "conv1.kernel" but not
// "conv10.kernel"); unmatched vars go to Default, and with a nil Default
// an unmatched var is an error naming it.
//
// State keys are the inner keys prefixed "rule<i>/" (i the rule index) or
// "default/", so two rules may hold state for the same var name. Each rule
// needs its own optimiser instance (a shared one would see its state
// exported twice and restored once). Use a *Multi.
type Multi struct {
	Rules   []Rule
	Default Optimizer

	groups [][]*Var // per rule, then Default; reused across steps
}

func (m *Multi) Name() string { return "Multi" }

// route returns the index of the rule for v, len(Rules) for Default, or -1.
func (m *Multi) route(v *Var) int {
	for i := range m.Rules {
		if m.Rules[i].matches(v) {
			return i
		}
	}
	if m.Default != nil {
		return len(m.Rules)
	}
	return -1
}

func (m *Multi) checkRules() error {
	for i, r := range m.Rules {
		n := 0
		for _, set := range []bool{r.Match != "", r.Owner != nil, r.Role != layers.RoleOther} {
			if set {
				n++
			}
		}
		if n == 0 {
			return fmt.Errorf("optim: Multi: Rules[%d].Match is empty, must name a kind, a var or a var prefix (or set Owner or Role)", i)
		}
		if n > 1 {
			return fmt.Errorf("optim: Multi: Rules[%d] sets %d of Match, Owner and Role, must set exactly one", i, n)
		}
		if r.Owner != nil && !reflect.TypeOf(r.Owner).Comparable() {
			return fmt.Errorf("optim: Multi: Rules[%d].Owner is a %T, must be comparable (a pointer to the model object)", i, r.Owner)
		}
		if r.Opt == nil {
			return fmt.Errorf("optim: Multi: Rules[%d] (Match %q) has a nil Opt", i, r.Match)
		}
	}
	return nil
}

// check validates the rules, step and every rule's and Default's
// hyper-parameters (for Clip around a Multi; Step itself checks only the
// optimisers that receive vars).
func (m *Multi) check(step int) error {
	if err := m.checkRules(); err != nil {
		return err
	}
	if step < 1 {
		return fmt.Errorf("optim: Multi: step = %d, must be ≥ 1 (steps count from 1)", step)
	}
	for i := 0; i <= len(m.Rules); i++ {
		if ch, ok := m.opt(i).(checker); ok {
			if err := ch.check(step); err != nil {
				return fmt.Errorf("optim: Multi: %s: %w", m.label(i), err)
			}
		}
	}
	return nil
}

// Step routes the vars and steps each optimiser that received any. All
// vars and the hyper-parameters of every receiving optimiser are checked
// before any update.
func (m *Multi) Step(vars []*Var, step int) error {
	if err := m.checkRules(); err != nil {
		return err
	}
	if step < 1 {
		return fmt.Errorf("optim: Multi: step = %d, must be ≥ 1 (steps count from 1)", step)
	}
	if err := checkVars("Multi", vars, step); err != nil {
		return err
	}
	if len(m.groups) != len(m.Rules)+1 {
		m.groups = make([][]*Var, len(m.Rules)+1)
	}
	for i := range m.groups {
		m.groups[i] = m.groups[i][:0]
	}
	for _, v := range vars {
		i := m.route(v)
		if i < 0 {
			return fmt.Errorf("optim: Multi: step %d: var %q (kind %q) matches no rule and Default is nil",
				step, v.Name, v.Kind)
		}
		m.groups[i] = append(m.groups[i], v)
	}
	for i, g := range m.groups {
		if ch, ok := m.opt(i).(checker); ok && len(g) > 0 {
			if err := ch.check(step); err != nil {
				return fmt.Errorf("optim: Multi: %s: %w", m.label(i), err)
			}
		}
	}
	for i, g := range m.groups {
		if len(g) == 0 {
			continue
		}
		if err := m.opt(i).Step(g, step); err != nil {
			return fmt.Errorf("optim: Multi: %s: %w", m.label(i), err)
		}
	}
	return nil
}

func (m *Multi) opt(i int) Optimizer {
	if i < len(m.Rules) {
		return m.Rules[i].Opt
	}
	return m.Default
}

func (m *Multi) label(i int) string {
	if i < len(m.Rules) {
		switch r := m.Rules[i]; {
		case r.Owner != nil:
			return fmt.Sprintf("rule %d (Owner %v)", i, r.Owner)
		case r.Role != layers.RoleOther:
			return fmt.Sprintf("rule %d (Role %v)", i, r.Role)
		}
		return fmt.Sprintf("rule %d (Match %q)", i, m.Rules[i].Match)
	}
	return "Default"
}

func (m *Multi) prefix(i int) string {
	if i < len(m.Rules) {
		return "rule" + strconv.Itoa(i) + "/"
	}
	return "default/"
}

// State exports every rule's and Default's state with prefixed keys.
func (m *Multi) State() map[string][]float64 {
	out := make(map[string][]float64)
	for i := 0; i <= len(m.Rules); i++ {
		o := m.opt(i)
		if o == nil {
			continue
		}
		p := m.prefix(i)
		for k, v := range o.State() {
			out[p+k] = v
		}
	}
	return out
}

// SetState splits st by prefix and restores every rule's and Default's
// state (an optimiser with no keys is reset).
func (m *Multi) SetState(st map[string][]float64) error {
	if err := m.checkRules(); err != nil {
		return err
	}
	parts := make([]map[string][]float64, len(m.Rules)+1)
	for i := range parts {
		parts[i] = make(map[string][]float64)
	}
	keys := make([]string, 0, len(st))
	for k := range st {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		i := -1
		if rest, ok := strings.CutPrefix(k, "default/"); ok && m.Default != nil {
			parts[len(m.Rules)][rest] = st[k]
			continue
		}
		if rest, ok := strings.CutPrefix(k, "rule"); ok {
			if j := strings.IndexByte(rest, '/'); j > 0 {
				if n, err := strconv.Atoi(rest[:j]); err == nil && n >= 0 && n < len(m.Rules) {
					i = n
					parts[i][rest[j+1:]] = st[k]
				}
			}
		}
		if i < 0 {
			return fmt.Errorf("optim: Multi: SetState: key %q must start \"rule<i>/\" with i in [0, %d) or \"default/\" (with a Default)",
				k, len(m.Rules))
		}
	}
	for i, p := range parts {
		o := m.opt(i)
		if o == nil {
			continue
		}
		if err := o.SetState(p); err != nil {
			return fmt.Errorf("optim: Multi: SetState: %s: %w", m.label(i), err)
		}
	}
	return nil
}
