package stream

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/neurogo/neurogo/toolkit/validate"
	yaml "go.yaml.in/yaml/v3"
)

// LoadOptions control Parse and Load.
type LoadOptions struct {
	// Globals override the values of globals declared in the file (as
	// statestream's command-line globals do); expressions of later globals
	// see the overridden value. Naming an undeclared global is an error.
	Globals map[string]float64
	// ReadFile reads imported files (and the file given to Load); nil
	// means os.ReadFile.
	ReadFile func(path string) ([]byte, error)
	// Strict rejects every key the loader does not use. By default
	// (compatibility mode, statestream's own acceptance: its sanity check
	// does not reject unknown keys) a key neurogo does not know — top-level
	// metadata such as rollout_factor, a misspelt item key, a key without
	// effect — is ignored with a warning in Net.Warnings that gives its
	// file, line, column and the nearest known key.
	Strict bool
}

func (o LoadOptions) read(path string) ([]byte, error) {
	if o.ReadFile != nil {
		return o.ReadFile(path)
	}
	return os.ReadFile(path)
}

// maxImportDepth bounds chains of imports (loops are detected separately).
const maxImportDepth = 32

// Load reads and parses the network file at path (see Parse).
func Load(path string, o LoadOptions) (*Net, error) {
	data, err := o.read(path)
	if err != nil {
		return nil, fmt.Errorf("stream: %w", err)
	}
	return Parse(data, path, o)
}

// Parse reads a statestream network description (YAML, an .st_graph file;
// the statestream paper, appendix 6.2; statestream docs/network_specification.md) named
// file (used in messages and to resolve imports), resolves its imports,
// instantiates its modules, applies its tag_specs, evaluates its globals
// and every numeric field (see Eval), fills in the defaults and validates
// the result (Net.Validate). It returns (nil, err) on any problem; the
// error joins one *validate.Error per problem (errors.Join), each with
// file, line and column.
func Parse(data []byte, file string, o LoadOptions) (*Net, error) {
	l := &loader{opts: o}
	raw := l.parseFile(data, file, nil)
	if len(l.errs) > 0 {
		return nil, errors.Join(l.errs...)
	}
	l.resolveInstances(raw)
	if len(l.errs) > 0 {
		return nil, errors.Join(l.errs...)
	}
	l.applyTags(raw)
	l.evalGlobals(raw)
	if len(l.errs) > 0 {
		return nil, errors.Join(l.errs...)
	}
	n := l.build(raw)
	if len(n.NeuronPools) == 0 {
		// statestream's sanity check too rejects a file without them
		l.errAt(n.Pos, secNP, "", "", "", "a network needs at least one neuron-pool (section neuron_pools is missing or empty)")
	}
	if len(l.errs) > 0 {
		return nil, errors.Join(l.errs...)
	}
	if err := n.Validate(); err != nil {
		return nil, err
	}
	n.Warnings = l.warns
	return n, nil
}

// rawKV is one key of an item as written: canonical key, where it was
// written and its value node.
type rawKV struct {
	key  string
	kpos Pos
	val  *yaml.Node
	file string
}

func (kv rawKV) vpos() Pos { return nodePos(kv.file, kv.val) }

func nodePos(file string, n *yaml.Node) Pos {
	return Pos{File: file, Line: n.Line, Col: n.Column}
}

type rawItem struct {
	name string
	pos  Pos
	kvs  []rawKV
}

func (it *rawItem) get(key string) (rawKV, bool) {
	for _, kv := range it.kvs {
		if kv.key == key {
			return kv, true
		}
	}
	return rawKV{}, false
}

// tags returns the item's own tags (scalars of its "tags" list).
func (it *rawItem) tags() []string {
	kv, ok := it.get("tags")
	if !ok || kv.val.Kind != yaml.SequenceNode {
		return nil
	}
	var t []string
	for _, c := range kv.val.Content {
		if c.Kind == yaml.ScalarNode {
			t = append(t, c.Value)
		}
	}
	return t
}

type rawSection struct {
	items []*rawItem
	idx   map[string]*rawItem
}

func newSection() *rawSection { return &rawSection{idx: map[string]*rawItem{}} }

func (s *rawSection) add(it *rawItem) bool {
	if _, ok := s.idx[it.name]; ok {
		return false
	}
	s.idx[it.name] = it
	s.items = append(s.items, it)
	return true
}

type rawModule struct {
	name     string
	pos      Pos
	sections map[string]*rawSection
}

type rawNet struct {
	file      string
	name      *rawKV
	agents    *rawKV
	sections  map[string]*rawSection // item sections, core_clients, tag_specs
	globals   []rawKV
	modules   map[string]*rawModule
	modOrder  []string
	instances []rawKV // top-level keys that are not known sections
}

type loader struct {
	opts    LoadOptions
	errs    []error
	warns   []*validate.Error
	globals map[string]float64
	// nodeFile records the file of module-parameter values substituted
	// into a template written in another file.
	nodeFile map[*yaml.Node]string
}

// pos is the position of n, a node of a value of file (or of a module
// parameter substituted into it).
func (l *loader) pos(file string, n *yaml.Node) Pos {
	if f, ok := l.nodeFile[n]; ok {
		file = f
	}
	return nodePos(file, n)
}

func (l *loader) markFile(n *yaml.Node, file string) {
	if l.nodeFile == nil {
		l.nodeFile = map[*yaml.Node]string{}
	}
	l.nodeFile[n] = file
	for _, c := range n.Content {
		l.markFile(c, file)
	}
}

func (l *loader) errAt(pos Pos, section, item, key, sug, format string, args ...any) {
	l.errs = append(l.errs, specErr(pos, section, item, key, sug, fmt.Sprintf(format, args...)))
}

// lenient reports a key statestream accepts and neurogo does not use: an
// error in strict mode, else a warning (Net.Warnings).
func (l *loader) lenient(pos Pos, section, item, key, sug, format string, args ...any) {
	if l.opts.Strict {
		l.errAt(pos, section, item, key, sug, format, args...)
		return
	}
	l.warns = append(l.warns, specErr(pos, section, item, key, sug, fmt.Sprintf(format, args...)+", ignored"))
}

// parseFile parses one file and resolves its imports; stack holds the
// files being imported (for loop detection).
func (l *loader) parseFile(data []byte, file string, stack []string) *rawNet {
	raw := &rawNet{file: file, sections: map[string]*rawSection{}, modules: map[string]*rawModule{}}
	for _, s := range append(slices.Clone(itemSections), secCC, secTags) {
		raw.sections[s] = newSection()
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		l.errs = append(l.errs, yamlError(file, err))
		return raw
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		l.errAt(Pos{File: file, Line: 1, Col: 1}, "", "", "", "", "empty network description")
		return raw
	}
	if p := findAlias(&doc); p != nil {
		l.errAt(nodePos(file, p), "", "", "", "", "YAML aliases are not supported in network descriptions")
		return raw
	}
	top := doc.Content[0]
	if top.Kind != yaml.MappingNode {
		l.errAt(nodePos(file, top), "", "", "", "", "a network description is a mapping of keys (name, agents, neuron_pools, …), got a %s", kindName(top))
		return raw
	}
	seen := map[string]bool{}
	var imports []rawKV
	for i := 0; i+1 < len(top.Content); i += 2 {
		k, v := top.Content[i], top.Content[i+1]
		kp := nodePos(file, k)
		if k.Kind != yaml.ScalarNode {
			l.errAt(kp, "", "", "", "", "top-level keys must be names")
			continue
		}
		if seen[k.Value] {
			l.errAt(kp, k.Value, "", "", "", "top-level key given twice")
			continue
		}
		seen[k.Value] = true
		kv := rawKV{key: k.Value, kpos: kp, val: v, file: file}
		switch k.Value {
		case "name":
			raw.name = &kv
		case "agents":
			raw.agents = &kv
		case "globals":
			raw.globals = l.parseGlobals(kv)
		case secNP, secSP, secPL, secIF, secCC, secTags:
			l.parseSection(raw.sections[k.Value], k.Value, kv)
		case "modules":
			l.parseModules(raw, kv)
		case "import":
			imports = append(imports, kv)
		case "backend":
			if v.Kind != yaml.ScalarNode {
				l.errAt(nodePos(file, v), "backend", "", "", "", "backend is a name (statestream: theano or tensorflow; ignored by neurogo)")
			}
		default:
			raw.instances = append(raw.instances, kv)
		}
	}
	for _, kv := range imports {
		l.parseImports(raw, kv, append(stack, file))
	}
	return raw
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			return "null"
		}
		return fmt.Sprintf("scalar %q", n.Value)
	case yaml.SequenceNode:
		return "list"
	case yaml.MappingNode:
		return "mapping"
	}
	return "node"
}

// findAlias returns the first alias node of the tree (or nil).
func findAlias(n *yaml.Node) *yaml.Node {
	if n.Kind == yaml.AliasNode {
		return n
	}
	for _, c := range n.Content {
		if a := findAlias(c); a != nil {
			return a
		}
	}
	return nil
}

// yamlError turns a yaml.v3 syntax error ("yaml: line 3: …") into an
// *validate.Error with the line (and column 1 when yaml gives none).
func yamlError(file string, err error) error {
	msg := err.Error()
	msg = strings.TrimPrefix(msg, "yaml: ")
	line, col := 0, 0
	if _, e := fmt.Sscanf(msg, "line %d:", &line); e == nil && line > 0 {
		msg = strings.TrimSpace(msg[strings.Index(msg, ":")+1:])
		col = 1
	} else if _, e := fmt.Sscanf(msg, "line %d, column %d:", &line, &col); e == nil && line > 0 {
		msg = strings.TrimSpace(msg[strings.Index(msg, ":")+1:])
	}
	if line == 0 {
		line, col = 1, 1
	}
	return specErr(Pos{File: file, Line: line, Col: col}, "", "", "", "", "malformed YAML: "+msg)
}

func (l *loader) parseGlobals(kv rawKV) []rawKV {
	if isNull(kv.val) {
		return nil
	}
	if kv.val.Kind != yaml.MappingNode {
		l.errAt(kv.vpos(), "globals", "", "", "", "globals must be a mapping of names to numbers, got a %s", kindName(kv.val))
		return nil
	}
	var out []rawKV
	seen := map[string]bool{}
	for i := 0; i+1 < len(kv.val.Content); i += 2 {
		k, v := kv.val.Content[i], kv.val.Content[i+1]
		if k.Kind != yaml.ScalarNode || !isName(k.Value) {
			l.errAt(nodePos(kv.file, k), "globals", "", "", "", "a global's name must be an identifier, got %s", kindName(k))
			continue
		}
		if seen[k.Value] {
			l.errAt(nodePos(kv.file, k), "globals", k.Value, "", "", "global given twice")
			continue
		}
		seen[k.Value] = true
		out = append(out, rawKV{key: k.Value, kpos: nodePos(kv.file, k), val: v, file: kv.file})
	}
	return out
}

func isName(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

func isNull(n *yaml.Node) bool {
	return n == nil || n.Kind == yaml.ScalarNode && n.Tag == "!!null"
}

// parseSection reads the items of a section (a mapping of item names to
// mappings of keys) into sec.
func (l *loader) parseSection(sec *rawSection, section string, kv rawKV) {
	if isNull(kv.val) {
		return
	}
	if kv.val.Kind != yaml.MappingNode {
		l.errAt(kv.vpos(), section, "", "", "", "%s must be a mapping of item names to items, got a %s", section, kindName(kv.val))
		return
	}
	for i := 0; i+1 < len(kv.val.Content); i += 2 {
		k, v := kv.val.Content[i], kv.val.Content[i+1]
		kp := nodePos(kv.file, k)
		if k.Kind != yaml.ScalarNode || k.Value == "" {
			l.errAt(kp, section, "", "", "", "item names must be non-empty names")
			continue
		}
		it := &rawItem{name: k.Value, pos: kp}
		if !isNull(v) && v.Kind != yaml.MappingNode {
			l.errAt(nodePos(kv.file, v), section, k.Value, "", "", "an item is a mapping of keys, got a %s", kindName(v))
			continue
		}
		if !isNull(v) {
			for j := 0; j+1 < len(v.Content); j += 2 {
				kk, vv := v.Content[j], v.Content[j+1]
				kkp := nodePos(kv.file, kk)
				if kk.Kind != yaml.ScalarNode {
					l.errAt(kkp, section, k.Value, "", "", "keys must be names, got a %s", kindName(kk))
					continue
				}
				key := canonicalKey(section, kk.Value)
				if section != secTags && section != secCC {
					if l.checkKey(kkp, section, k.Value, key) {
						continue
					}
				}
				if section == secTags {
					if l.checkTagKey(kkp, k.Value, key) {
						continue
					}
				}
				if _, dup := it.get(key); dup {
					l.errAt(kkp, section, k.Value, kk.Value, "", "key given twice")
					continue
				}
				it.kvs = append(it.kvs, rawKV{key: key, kpos: kkp, val: vv, file: kv.file})
			}
		}
		if !sec.add(it) {
			l.errAt(kp, section, k.Value, "", "", "duplicate name %q", k.Value)
		}
	}
}

// checkKey reports (and returns true for) an unknown, unsupported or
// ignored key: true means the key is not kept.
func (l *loader) checkKey(pos Pos, section, item, key string) bool {
	if unsupportedKey(section, key) {
		l.errAt(pos, section, item, key, "", "statestream key %q is not supported by neurogo", key)
		return true
	}
	if why, ok := ignoredKey(section, key); ok {
		if l.opts.Strict {
			l.errAt(pos, section, item, key, "", "key %q has no effect: %s", key, why)
		}
		return true
	}
	if keyValid(section, key) {
		return false
	}
	cands := sectionKeys(section)
	if section == secSP {
		cands = append(slices.Clone(cands), "init W_0_0")
	}
	l.lenient(pos, section, item, key, suggest(key, cands), "unknown key %q", key)
	return true
}

// checkTagKey accepts a tag key valid for at least one item kind.
func (l *loader) checkTagKey(pos Pos, tag, key string) bool {
	if key == "tags" {
		l.errAt(pos, secTags, tag, key, "", "a tag spec cannot give tags")
		return true
	}
	for _, s := range []string{secNP, secSP, secPL} {
		if keyValid(s, key) {
			return false
		}
	}
	if key == "init b" || key == "init g" || tagKeyApplies(secIF, key) {
		return false
	}
	var all []string
	for _, s := range []string{secNP, secSP, secPL} {
		all = append(all, sectionKeys(s)...)
	}
	l.lenient(pos, secTags, tag, key, suggest(key, all), "key %q applies to no neuron-pool, synapse-pool, plasticity or interface", key)
	return true
}

func (l *loader) parseModules(raw *rawNet, kv rawKV) {
	if isNull(kv.val) {
		return
	}
	if kv.val.Kind != yaml.MappingNode {
		l.errAt(kv.vpos(), "modules", "", "", "", "modules must be a mapping of module names to module templates, got a %s", kindName(kv.val))
		return
	}
	for i := 0; i+1 < len(kv.val.Content); i += 2 {
		k, v := kv.val.Content[i], kv.val.Content[i+1]
		kp := nodePos(kv.file, k)
		if k.Kind != yaml.ScalarNode || !isName(k.Value) {
			l.errAt(kp, "modules", "", "", "", "module names must be identifiers")
			continue
		}
		if slices.Contains(topKeys, k.Value) {
			l.errAt(kp, "modules", k.Value, "", "", "a module may not be named like a top-level key")
			continue
		}
		if _, dup := raw.modules[k.Value]; dup {
			l.errAt(kp, "modules", k.Value, "", "", "duplicate module %q", k.Value)
			continue
		}
		m := &rawModule{name: k.Value, pos: kp, sections: map[string]*rawSection{}}
		for _, s := range append(slices.Clone(itemSections), secCC) {
			m.sections[s] = newSection()
		}
		if isNull(v) || v.Kind != yaml.MappingNode {
			l.errAt(nodePos(kv.file, v), "modules", k.Value, "", "", "a module template is a mapping of sections, got a %s", kindName(v))
			continue
		}
		for j := 0; j+1 < len(v.Content); j += 2 {
			sk, sv := v.Content[j], v.Content[j+1]
			sec, ok := m.sections[sk.Value]
			if sk.Kind != yaml.ScalarNode || !ok {
				l.errAt(nodePos(kv.file, sk), "modules", k.Value, sk.Value,
					suggest(sk.Value, append(slices.Clone(itemSections), secCC)),
					"a module template may only hold neuron_pools, synapse_pools, plasticities, interfaces and core_clients")
				continue
			}
			l.parseSection(sec, sk.Value, rawKV{key: sk.Value, kpos: nodePos(kv.file, sk), val: sv, file: kv.file})
		}
		raw.modules[k.Value] = m
		raw.modOrder = append(raw.modOrder, k.Value)
	}
}

// parseImports resolves an import list (statestream
// docs/import_specification.md): each entry [file, what] names another
// network file, relative to the importing file (".st_graph" is appended
// when the name has no extension), and what to take from it: a section
// (neuron_pools, synapse_pools, plasticities, interfaces), a section's
// items with a tag (neuron_pools.hidden), modules or modules.NAME,
// tag_specs or tag_specs.NAME, globals or globals.NAME, core_clients or
// core_clients.NAME, or a bare tag (every item carrying it). Items and
// keys already present in the importing file win.
func (l *loader) parseImports(raw *rawNet, kv rawKV, stack []string) {
	if isNull(kv.val) {
		return
	}
	if kv.val.Kind != yaml.SequenceNode {
		l.errAt(kv.vpos(), "import", "", "", "", "import must be a list of [file, part] pairs, got a %s", kindName(kv.val))
		return
	}
	for _, e := range kv.val.Content {
		ep := nodePos(kv.file, e)
		if e.Kind != yaml.SequenceNode || len(e.Content) != 2 || e.Content[0].Kind != yaml.ScalarNode || e.Content[1].Kind != yaml.ScalarNode {
			l.errAt(ep, "import", "", "", "", "an import is a pair [file, part], e.g. [mnist_small, neuron_pools]")
			continue
		}
		src, what := e.Content[0].Value, e.Content[1].Value
		path := src
		if filepath.Ext(path) == "" {
			path += ".st_graph"
		}
		if !filepath.IsAbs(path) {
			path = filepath.Join(filepath.Dir(raw.file), path)
		}
		if slices.Contains(stack, path) {
			l.errAt(ep, "import", src, "", "", "import loop: %s", strings.Join(append(slices.Clone(stack), path), " → "))
			continue
		}
		if len(stack) >= maxImportDepth {
			l.errAt(ep, "import", src, "", "", "imports nested deeper than %d", maxImportDepth)
			continue
		}
		data, err := l.opts.read(path)
		if err != nil {
			l.errAt(ep, "import", src, "", "", "cannot read %s: %v", path, err)
			continue
		}
		n0 := len(l.errs)
		sub := l.parseFile(data, path, stack)
		if len(l.errs) > n0 {
			continue
		}
		if !l.merge(raw, sub, what) {
			l.errAt(nodePos(kv.file, e.Content[1]), "import", src, "", "", "%s provides nothing for %q", path, what)
		}
	}
}

// merge adds the part what of sub to raw; it reports whether what named
// anything in sub.
func (l *loader) merge(raw, sub *rawNet, what string) bool {
	head, rest, dotted := strings.Cut(what, ".")
	mergeItem := func(section string, it *rawItem) {
		dst, ok := raw.sections[section].idx[it.name]
		if !ok {
			dst = &rawItem{name: it.name, pos: it.pos}
			raw.sections[section].add(dst)
		}
		for _, kv := range it.kvs {
			if _, has := dst.get(kv.key); !has {
				dst.kvs = append(dst.kvs, kv)
			}
		}
	}
	found := false
	switch {
	case slices.Contains(itemSections, head) || head == secCC || head == secTags:
		for _, it := range sub.sections[head].items {
			if head == secTags || head == secCC {
				if dotted && it.name != rest {
					continue
				}
			} else if dotted && !slices.Contains(it.tags(), rest) {
				continue
			}
			mergeItem(head, it)
			found = true
		}
	case head == "modules":
		for _, name := range sub.modOrder {
			if dotted && name != rest {
				continue
			}
			found = true
			if _, has := raw.modules[name]; !has {
				raw.modules[name] = sub.modules[name]
				raw.modOrder = append(raw.modOrder, name)
			}
		}
	case head == "globals":
		var add []rawKV
		for _, g := range sub.globals {
			if dotted && g.key != rest {
				continue
			}
			found = true
			if !slices.ContainsFunc(raw.globals, func(x rawKV) bool { return x.key == g.key }) {
				add = append(add, g)
			}
		}
		raw.globals = append(add, raw.globals...)
	case !dotted:
		for _, s := range itemSections {
			for _, it := range sub.sections[s].items {
				if slices.Contains(it.tags(), what) {
					found = true
					if _, has := raw.sections[s].idx[it.name]; !has {
						mergeItem(s, it)
					}
				}
			}
		}
	}
	return found
}

// resolveInstances checks the remaining top-level keys name modules and
// instantiates them (statestream docs/modules.md): every instance INST of
// module M gets M's items named INST_item; scalars "_var" in the template
// are replaced by the instance's value for var; the template's local
// neuron-pool and synapse-pool names are prefixed with INST_ where they
// are referenced (synapse-pool source and target; plasticity source,
// target, mask and the item of each parameter; interface remap values).
func (l *loader) resolveInstances(raw *rawNet) {
	for _, kv := range raw.instances {
		m, ok := raw.modules[kv.key]
		if !ok {
			cands := append(slices.Clone(topKeys), raw.modOrder...)
			l.lenient(kv.kpos, kv.key, "", "", suggest(kv.key, cands), "unknown top-level key %q (neither a section nor a module)", kv.key)
			continue
		}
		if isNull(kv.val) {
			continue
		}
		if kv.val.Kind != yaml.MappingNode {
			l.errAt(kv.vpos(), kv.key, "", "", "", "module instances are a mapping of instance names to parameters, got a %s", kindName(kv.val))
			continue
		}
		for i := 0; i+1 < len(kv.val.Content); i += 2 {
			k, v := kv.val.Content[i], kv.val.Content[i+1]
			if k.Kind != yaml.ScalarNode || !isName(k.Value) {
				l.errAt(nodePos(kv.file, k), kv.key, "", "", "", "instance names must be identifiers")
				continue
			}
			params := map[string]rawKV{}
			if !isNull(v) {
				if v.Kind != yaml.MappingNode {
					l.errAt(nodePos(kv.file, v), kv.key, k.Value, "", "", "an instance is a mapping of module parameters, got a %s", kindName(v))
					continue
				}
				for j := 0; j+1 < len(v.Content); j += 2 {
					pk := v.Content[j]
					params[pk.Value] = rawKV{key: pk.Value, kpos: nodePos(kv.file, pk), val: v.Content[j+1], file: kv.file}
				}
			}
			l.instantiate(raw, m, k.Value, nodePos(kv.file, k), params)
		}
	}
}

func (l *loader) instantiate(raw *rawNet, m *rawModule, inst string, ipos Pos, params map[string]rawKV) {
	local := map[string]bool{}
	for _, s := range []string{secNP, secSP} {
		for _, it := range m.sections[s].items {
			local[it.name] = true
		}
	}
	used := map[string]bool{}
	var vars []string
	// subst copies n, replacing "_var" scalars by the instance's value and
	// prefixing local names where rename says so.
	var subst func(n *yaml.Node, file string, rename bool) *yaml.Node
	subst = func(n *yaml.Node, file string, rename bool) *yaml.Node {
		c := *n
		if isVar(n) {
			name := n.Value[1:]
			if !slices.Contains(vars, name) {
				vars = append(vars, name)
			}
			p, ok := params[name]
			if !ok {
				l.errAt(nodePos(file, n), m.name, inst, name, "", "module parameter %q is not given by instance %q (at %s:%d)", name, inst, ipos.File, ipos.Line)
				return &c
			}
			used[name] = true
			if p.file != file {
				l.markFile(p.val, p.file)
			}
			return p.val // module parameters are used as given (never renamed)
		}
		if n.Kind == yaml.ScalarNode && rename && local[n.Value] {
			c.Value = inst + "_" + n.Value
		}
		c.Content = make([]*yaml.Node, len(n.Content))
		for i, ch := range n.Content {
			c.Content[i] = subst(ch, file, rename)
		}
		return &c
	}
	for _, s := range append(slices.Clone(itemSections), secCC) {
		for _, it := range m.sections[s].items {
			nit := &rawItem{name: inst + "_" + it.name, pos: it.pos}
			for _, kv := range it.kvs {
				rename := false
				switch {
				case s == secSP && (kv.key == "source" || kv.key == "target"):
					rename = true
				case s == secPL && (kv.key == "source" || kv.key == "target" || kv.key == "mask"):
					rename = true
				case s == secIF && kv.key == "remap":
					rename = true
				}
				nv := subst(kv.val, kv.file, rename)
				if s == secPL && kv.key == "parameter" && nv.Kind == yaml.SequenceNode {
					// Rename the item of each [kind, item, name] entry,
					// unless it came from a module parameter.
					for i, e := range nv.Content {
						if kv.val.Kind != yaml.SequenceNode || i >= len(kv.val.Content) {
							break // the whole list came from a module parameter
						}
						orig := kv.val.Content[i]
						if e.Kind == yaml.SequenceNode && len(e.Content) == 3 && orig.Kind == yaml.SequenceNode && len(orig.Content) == 3 && !isVar(orig.Content[1]) && local[e.Content[1].Value] {
							ce := *e
							ce.Content = slices.Clone(e.Content)
							item := *e.Content[1]
							item.Value = inst + "_" + item.Value
							ce.Content[1] = &item
							nv.Content[i] = &ce
						}
					}
				}
				nit.kvs = append(nit.kvs, rawKV{key: kv.key, kpos: kv.kpos, val: nv, file: kv.file})
			}
			if !raw.sections[s].add(nit) {
				l.errAt(ipos, s, nit.name, "", "", "module instance %q of %q creates %q, which already exists", inst, m.name, nit.name)
			}
		}
	}
	names := make([]string, 0, len(params))
	for k := range params {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		if !used[k] {
			l.errAt(params[k].kpos, m.name, inst, k, suggest(k, vars), "module %q has no parameter _%s", m.name, k)
		}
	}
}

// applyTags merges tag_specs into the items carrying the tags (statestream
// docs/tag_specification.md): an item's own keys win; with several tags the
// earlier tag in the item's list wins. Keys that do not apply to the item's
// kind are skipped (a tag may serve pools and plasticities alike; see
// tagKeyApplies). Tags without a tag_specs entry only group items.
func (l *loader) applyTags(raw *rawNet) {
	specs := raw.sections[secTags]
	for _, s := range itemSections {
		for _, it := range raw.sections[s].items {
			for _, tag := range it.tags() {
				spec, ok := specs.idx[tag]
				if !ok {
					continue
				}
				for _, kv := range spec.kvs {
					key := canonicalKey(s, kv.key)
					if !tagKeyApplies(s, key) {
						continue
					}
					if _, has := it.get(key); !has {
						kv.key = key
						it.kvs = append(it.kvs, kv)
					}
				}
			}
		}
	}
}

// evalGlobals evaluates the globals in order; each may use the earlier
// ones. Overrides from LoadOptions replace a global's value.
func (l *loader) evalGlobals(raw *rawNet) {
	l.globals = map[string]float64{}
	var declared []string
	for _, g := range raw.globals {
		declared = append(declared, g.key)
		if v, ok := l.opts.Globals[g.key]; ok {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				l.errAt(g.kpos, "globals", g.key, "", "", "override %g is not a finite number", v)
				continue
			}
			l.globals[g.key] = v
			continue
		}
		if v, ok := l.number(g, g.val, "globals", g.key, ""); ok {
			l.globals[g.key] = v
		}
	}
	names := make([]string, 0, len(l.opts.Globals))
	for k := range l.opts.Globals {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		if !slices.Contains(declared, k) {
			l.errAt(Pos{File: raw.file}, "globals", k, "", suggest(k, declared), "override of global %q, which the file does not declare", k)
		}
	}
}

// isVar reports whether n is a module variable: a plain scalar "_name".
func isVar(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.Style == 0 && len(n.Value) > 1 && n.Value[0] == '_'
}
