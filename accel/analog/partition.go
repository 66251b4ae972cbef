package analog

import "fmt"

// Tile is one array-sized part of a partitioned operation (the hxtorch
// paper, §3.3, Fig 6): weight rows Row0..Row1-1 and columns Col0..Col1-1, placed
// on synapse array Array (of chip Chip) in run Run (temporal reuse: run
// r executes after run r-1 has finished on that array).
type Tile struct {
	Row0, Row1, Col0, Col1 int
	RowSplit, ColSplit     int
	Chip, Array, Run       int
}

// Partition is the placement of a rows×cols operation on a system.
type Partition struct {
	Rows, Cols int
	// RowsPerArray is 128 for signed weights (two physical rows per
	// input) and 256 for unsigned ones; ColsPerArray is 256.
	RowsPerArray, ColsPerArray int
	RowSplits, ColSplits       int
	// Arrays is the number of synapse arrays the system has, Runs the
	// number of times the busiest array is configured.
	Arrays, Runs int
	Tiles        []Tile // row split major: tile (r, c) is Tiles[r·ColSplits+c]
}

// Partition splits a rows×cols weight matrix into array-sized tiles and
// places them round robin on the system's synapse arrays: tile k goes to
// array k mod Arrays in run k div Arrays (the hxtorch paper, §3.3). Row splits are
// later summed digitally, column splits concatenated (eq. 1). With
// Config.NoReuse an operation needing more arrays than the system has is
// an error.
func (s *System) Partition(rows, cols int, unsigned bool) (*Partition, error) {
	if rows <= 0 || cols <= 0 {
		return nil, fmt.Errorf("analog: Partition: %d×%d weights: both sizes must be positive", rows, cols)
	}
	const maxSide = 1 << 20
	if rows > maxSide || cols > maxSide {
		return nil, fmt.Errorf("analog: Partition: %d×%d weights: larger than %d in a dimension", rows, cols, maxSide)
	}
	p := &Partition{Rows: rows, Cols: cols, RowsPerArray: ArrayRows / 2, ColsPerArray: ArrayCols, Arrays: s.arrays}
	if unsigned {
		p.RowsPerArray = ArrayRows
	}
	p.RowSplits = (rows + p.RowsPerArray - 1) / p.RowsPerArray
	p.ColSplits = (cols + p.ColsPerArray - 1) / p.ColsPerArray
	n := p.RowSplits * p.ColSplits
	if s.cfg.NoReuse && n > s.arrays {
		return nil, fmt.Errorf("analog: Partition: %d×%d weights need %d synapse arrays (%d row × %d column splits of %d×%d); the system has %d (%d chip(s) × %d arrays) and Config.NoReuse forbids reusing them: add chips or allow reuse",
			rows, cols, n, p.RowSplits, p.ColSplits, p.RowsPerArray, p.ColsPerArray, s.arrays, s.cfg.Chips, s.cfg.ArraysPerChip)
	}
	p.Tiles = make([]Tile, 0, n)
	for r := range p.RowSplits {
		for c := range p.ColSplits {
			k := len(p.Tiles)
			a := k % s.arrays
			p.Tiles = append(p.Tiles, Tile{
				Row0: r * p.RowsPerArray, Row1: min(rows, (r+1)*p.RowsPerArray),
				Col0: c * p.ColsPerArray, Col1: min(cols, (c+1)*p.ColsPerArray),
				RowSplit: r, ColSplit: c,
				Array: a, Chip: a / s.cfg.ArraysPerChip, Run: k / s.arrays,
			})
		}
	}
	p.Runs = (n + s.arrays - 1) / s.arrays
	return p, nil
}

// Utilisation is the fraction of the configured synapses that hold a
// weight: Σ tile areas / (tiles · array area). Edge tiles are partly
// empty, so it approaches 1 for matrices much larger than an array
// (O(N+M) partial against O(N·M) full allocations; the hxtorch paper, §3.3).
func (p *Partition) Utilisation() float64 {
	used := 0
	for _, t := range p.Tiles {
		used += (t.Row1 - t.Row0) * (t.Col1 - t.Col0)
	}
	return float64(used) / float64(len(p.Tiles)*p.RowsPerArray*p.ColsPerArray)
}

// ArrayUse returns, per synapse array, how many tiles it executes.
func (p *Partition) ArrayUse() []int {
	u := make([]int, p.Arrays)
	for _, t := range p.Tiles {
		u[t.Array]++
	}
	return u
}

// String summarises the partition.
func (p *Partition) String() string {
	return fmt.Sprintf("%d×%d on %d arrays: %d row × %d column splits of %d×%d, %d run(s), utilisation %.1f%%",
		p.Rows, p.Cols, p.Arrays, p.RowSplits, p.ColSplits, p.RowsPerArray, p.ColsPerArray, p.Runs, 100*p.Utilisation())
}
