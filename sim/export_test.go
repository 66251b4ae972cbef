package sim

// SetSplitThresholds lowers the sizes from which operators are cut across
// cores, so tests can exercise the split on small models; it returns a
// function that restores them.
func SetSplitThresholds(macs, neurons int) (restore func()) {
	m, n := splitMACs, splitNeurons
	splitMACs, splitNeurons = macs, neurons
	return func() { splitMACs, splitNeurons = m, n }
}

// SetLockBytes lowers the lockstep chunk volume so small test models are
// cut; it returns a function that restores it.
func SetLockBytes(b int) (restore func()) {
	old := lockBytes
	lockBytes = b
	return func() { lockBytes = old }
}

// SetDedup switches computing products by distinct rows on or off; it
// returns a function that restores the setting.
func SetDedup(on bool) (restore func()) {
	old := minDupFraction
	if on {
		minDupFraction = 0.25
	} else {
		minDupFraction = 2 // never reached
	}
	return func() { minDupFraction = old }
}

// SetPack switches packed ensemble weights on or off; it returns a
// function that restores the setting.
func SetPack(on bool) (restore func()) {
	old := packOn
	packOn = on
	return func() { packOn = old }
}

// SetOctets switches packing eight ensembles together (octets) on or
// off; it returns a function that restores the setting.
func SetOctets(on bool) (restore func()) {
	old := octOn
	octOn = on
	return func() { octOn = old }
}

// Octets returns the number of octets a simulator packed.
func Octets(s *Simulator) int { return s.octets }

// SetAligned switches the aligned weight copies of read-only products on
// or off; it returns a function that restores the setting.
func SetAligned(on bool) (restore func()) {
	old := alignOn
	alignOn = on
	return func() { alignOn = old }
}

// AlignedBytes returns the bytes of aligned weight copies s made.
func AlignedBytes(s *Simulator) int { return s.alignedBytes }

// AlignedCopies returns the number of product blocks that read an
// aligned weight copy and of distinct copies among them.
func AlignedCopies(s *Simulator) (blocks, copies int) {
	seen := map[*float64]bool{}
	for _, ln := range s.lanes {
		for _, r := range ln.runners {
			if r.dot == nil {
				continue
			}
			for _, b := range r.dot.bs {
				if b.wa == nil {
					continue
				}
				blocks++
				if !seen[&b.wa[0]] {
					seen[&b.wa[0]] = true
					copies++
				}
			}
		}
	}
	return blocks, copies
}
