package toolkit

import "strconv"

// GraphNodes lists the network's ensembles and nodes, at every level of
// nesting, for drawing the model as a graph (viz.ModelGraph reads it):
// unique ids, labels and kinds ("ensemble" or "node"), ensembles first,
// each in AllEnsembles / AllNodes order.
func (net *Network) GraphNodes() (ids, labels, kinds []string) {
	objIDs := net.graphIDs()
	for _, e := range net.AllEnsembles() {
		ids, labels, kinds = append(ids, objIDs[e]), append(labels, e.Label), append(kinds, "ensemble")
	}
	for _, n := range net.AllNodes() {
		ids, labels, kinds = append(ids, objIDs[n]), append(labels, n.Label), append(kinds, "node")
	}
	return ids, labels, kinds
}

// GraphEdges lists the connections as edges between the ids of
// GraphNodes, labelled with the connection's label. A connection to or
// from an ensemble's neurons is drawn to or from the ensemble; an error
// connection into a learning rule is drawn to the learned connection's
// post object, labelled "learning: <label>".
func (net *Network) GraphEdges() (from, to, labels []string) {
	objIDs := net.graphIDs()
	id := func(o Object) (string, bool) {
		switch x := o.(type) {
		case *Neurons:
			o = x.Ensemble
		case *Rule:
			if x.Conn == nil || x.Conn.Post == nil {
				return "", false
			}
			return net.graphTarget(objIDs, x.Conn.Post.Obj())
		}
		return net.graphTarget(objIDs, o)
	}
	for _, c := range net.AllConnections() {
		if c.Pre == nil || c.Post == nil {
			continue
		}
		f, ok1 := id(c.Pre.Obj())
		t, ok2 := id(c.Post.Obj())
		if !ok1 || !ok2 {
			continue
		}
		label := c.Label
		if _, ok := c.Post.Obj().(*Rule); ok {
			label = "learning: " + c.Label
		}
		from, to, labels = append(from, f), append(to, t), append(labels, label)
	}
	return from, to, labels
}

func (net *Network) graphTarget(ids map[Object]string, o Object) (string, bool) {
	if n, ok := o.(*Neurons); ok {
		o = n.Ensemble
	}
	s, ok := ids[o]
	return s, ok
}

func (net *Network) graphIDs() map[Object]string {
	ids := map[Object]string{}
	for i, e := range net.AllEnsembles() {
		ids[e] = "e" + strconv.Itoa(i)
	}
	for i, n := range net.AllNodes() {
		ids[n] = "n" + strconv.Itoa(i)
	}
	return ids
}
