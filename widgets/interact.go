package widgets

import (
	"errors"
	"fmt"
	"reflect"

	"github.com/neurogo/neurogo/display"
)

// valued is a control with one value (sliders, checkbox, text, dropdown,
// toggle buttons).
type valued interface {
	Widget
	getAny() any
	setAny(v any)
	observeAny(f func(any))
}

// Link keeps the values of two controls equal: b takes a's value now, and
// a change of either is copied to the other. Both must hold values of the
// same type (two sliders over float64, a slider and … ).
func Link(a, b Widget) error {
	va, ok1 := a.(valued)
	vb, ok2 := b.(valued)
	if !ok1 || !ok2 {
		return fmt.Errorf("widgets: Link: %T and %T: both must be controls with a value", a, b)
	}
	ta, tb := reflect.TypeOf(va.getAny()), reflect.TypeOf(vb.getAny())
	if ta != tb {
		return fmt.Errorf("widgets: Link: %T holds %v but %T holds %v", a, ta, b, tb)
	}
	vb.setAny(va.getAny())
	va.observeAny(func(v any) { vb.setAny(v) })
	vb.observeAny(func(v any) { va.setAny(v) })
	return nil
}

var errorType = reflect.TypeOf((*error)(nil)).Elem()

// Interact calls fn with the values of controls now and whenever one of
// them changes, and shows what it prints, displays and returns in an
// output area below the controls (ipywidgets' interact). fn takes one
// argument per control, of the control's value type (float64 for
// FloatSlider and FloatLogSlider, int for IntSlider, bool for Checkbox,
// string for Text, Dropdown and ToggleButtons); it may return nothing, a
// value (displayed), an error, or a value and an error. A mismatch is
// shown in the output area instead; a panic or error of fn is shown there
// too. The result is a VBox of the controls and the output.
func Interact(fn any, controls ...Widget) Widget {
	out := NewOutput()
	children := append(append([]Widget{}, controls...), out)
	box := VBox(children...)
	call, err := interactCall(fn, controls)
	if err != nil {
		out.appendStream("stderr", err.Error()+"\n")
		return box
	}
	for _, c := range controls {
		if m := modelOf(c); m != nil {
			m.mu.Lock()
			m.errOut = out
			m.mu.Unlock()
		}
	}
	run := func() {
		out.Clear()
		out.Capture(call)
	}
	for _, c := range controls {
		c.(valued).observeAny(func(any) { run() })
	}
	run()
	return box
}

// interactCall checks fn against controls and returns the call of fn with
// the controls' current values.
func interactCall(fn any, controls []Widget) (func(), error) {
	fv := reflect.ValueOf(fn)
	if fn == nil || fv.Kind() != reflect.Func {
		return nil, fmt.Errorf("widgets: Interact: fn must be a function, got %T", fn)
	}
	ft := fv.Type()
	if ft.IsVariadic() || ft.NumIn() != len(controls) {
		return nil, fmt.Errorf("widgets: Interact: %v takes %d arguments but %d controls were given", ft, ft.NumIn(), len(controls))
	}
	if ft.NumOut() > 2 || (ft.NumOut() == 2 && ft.Out(1) != errorType) {
		return nil, fmt.Errorf("widgets: Interact: %v must return nothing, a value, an error, or a value and an error", ft)
	}
	vs := make([]valued, len(controls))
	for i, c := range controls {
		v, ok := c.(valued)
		if !ok || c == nil {
			return nil, fmt.Errorf("widgets: Interact: control %d (%T) has no value", i, c)
		}
		if t := reflect.TypeOf(v.getAny()); !t.AssignableTo(ft.In(i)) {
			return nil, fmt.Errorf("widgets: Interact: argument %d of %v is %v, but control %d (%T) gives %v", i, ft, ft.In(i), i, c, t)
		}
		vs[i] = v
	}
	return func() {
		args := make([]reflect.Value, len(vs))
		for i, v := range vs {
			args[i] = reflect.ValueOf(v.getAny()).Convert(ft.In(i))
		}
		res := fv.Call(args)
		if n := len(res); n > 0 && ft.Out(n-1) == errorType {
			if e, _ := res[n-1].Interface().(error); e != nil {
				panic(errors.New(e.Error()))
			}
			res = res[:n-1]
		}
		if len(res) == 1 {
			r := res[0]
			switch r.Kind() {
			case reflect.Pointer, reflect.Interface, reflect.Map, reflect.Slice, reflect.Func, reflect.Chan:
				if r.IsNil() {
					return
				}
			}
			_ = display.Display(r.Interface())
		}
	}, nil
}
