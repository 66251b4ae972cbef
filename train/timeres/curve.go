package timeres

// Curve is one named accuracy-over-delay curve, the data of Fig. 3b of
// the statestream paper (drawn by notebook.AccuracyPlot).
type Curve struct {
	Name string
	// Accuracy[δt], NaN where there are no samples (left out).
	Accuracy []float64
}
