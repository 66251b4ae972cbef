package widgets

import (
	"fmt"
	"slices"
)

// Box lays out widgets in a row (HBox) or a column (VBox).
type Box struct {
	core
	children []Widget
}

// HBox lays out children in a row.
func HBox(children ...Widget) *Box { return newBox("HBoxModel", "HBoxView", children) }

// VBox lays out children in a column.
func VBox(children ...Widget) *Box { return newBox("VBoxModel", "VBoxView", children) }

func newBox(modelName, viewName string, children []Widget) *Box {
	b := &Box{core: core{newDOM(modelName, viewName, nil, map[string]any{"box_style": "", "children": []any{}})}}
	b.setChildren(children)
	name := modelName[:len(modelName)-len("Model")]
	b.m.describe = func() string { return fmt.Sprintf("%s(%d children)", name, len(b.Children())) }
	return b
}

// childRefs returns the references of children and their models; nil
// children are left out.
func childRefs(children []Widget) ([]any, []*model, []Widget) {
	refs := []any{}
	var models []*model
	var kept []Widget
	for _, c := range children {
		if c == nil {
			continue
		}
		kept = append(kept, c)
		refs = append(refs, "IPY_MODEL_"+c.ModelID())
		if m := modelOf(c); m != nil {
			models = append(models, m)
		}
	}
	return refs, models, kept
}

func (b *Box) setChildren(children []Widget) {
	refs, models, kept := childRefs(children)
	b.m.mu.Lock()
	b.children = kept
	b.m.refs = append(b.m.refs[:1:1], models...) // layout first
	opened := b.m.opened
	b.m.mu.Unlock()
	if opened {
		for _, c := range models {
			_ = c.ensureOpen()
		}
	}
	b.m.set(map[string]any{"children": refs})
}

// SetChildren replaces the box's children.
func (b *Box) SetChildren(children ...Widget) { b.setChildren(children) }

// Children returns the box's children.
func (b *Box) Children() []Widget {
	b.m.mu.Lock()
	defer b.m.mu.Unlock()
	return slices.Clone(b.children)
}

// Tabs shows one of its children at a time, chosen by tab titles.
type Tabs struct {
	core
	children []Widget
	obs      observers[int]
}

// Tab returns tabs with the given titles over children (missing titles
// are left empty, extra ones dropped); the first tab is selected.
func Tab(titles []string, children ...Widget) *Tabs {
	refs, models, kept := childRefs(children)
	ts := make([]any, len(kept))
	for i := range ts {
		ts[i] = ""
		if i < len(titles) {
			ts[i] = titles[i]
		}
	}
	var sel any
	if len(kept) > 0 {
		sel = 0
	}
	t := &Tabs{core: core{newDOM("TabModel", "TabView", nil, map[string]any{"box_style": "", "children": refs, "selected_index": sel, "titles": ts})}, children: kept}
	t.m.refs = append(t.m.refs, models...)
	t.m.writable["selected_index"] = kIntOrNil
	t.m.validate = func(key string, v any) (any, error) {
		if i, ok := v.(int); ok && (i < 0 || i >= len(kept)) {
			return nil, fmt.Errorf("%q %d is out of range [0, %d)", key, i, len(kept))
		}
		return v, nil
	}
	t.m.changed = func([]string) { t.obs.fire(t.m, "Observe", t.Selected()) }
	t.m.describe = func() string { return fmt.Sprintf("Tab(%d children, selected %d)", len(kept), t.Selected()) }
	return t
}

// Selected returns the index of the selected tab (-1 if none).
func (t *Tabs) Selected() int {
	if i, ok := t.m.get("selected_index").(int); ok {
		return i
	}
	return -1
}

// Select selects tab i (ignored when out of range).
func (t *Tabs) Select(i int) {
	if i < 0 || i >= len(t.children) {
		return
	}
	if t.m.set(map[string]any{"selected_index": i}) {
		t.obs.fire(t.m, "Observe", i)
	}
}

// Observe calls f with the index of the newly selected tab.
func (t *Tabs) Observe(f func(int)) { t.obs.add(f) }

// Children returns the tabs' children.
func (t *Tabs) Children() []Widget { return slices.Clone(t.children) }
