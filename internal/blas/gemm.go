package blas

import (
	"runtime"
	"sync"
	"unsafe"
)

func unsafeSlice[T elem](p *T, n int) []T { return unsafe.Slice(p, n) }

// Block sizes of the Goto/BLIS loops around the micro-kernel (the same
// for every kernel; multiples of every mr and nr). A kc×nr micro-panel of
// B (32 KiB of float64 at nr = 16) stays in L1 while the micro-kernel
// runs down an mc×kc block of A (384 KiB, in L2); a kc×nc panel of B
// (1 MiB) is packed once per kc step and stays in L2 beside it.
const (
	kcSize = 256
	mcSize = 192
	ncSize = 512
)

// parMin is the smallest product (m·n·k multiply-adds) split across
// goroutines.
const parMin = 1 << 18

// work holds one goroutine's packed panels and its edge tile.
type work[T elem] struct {
	a, b []T
	tile [12 * 32]T
}

var (
	pool64 sync.Pool
	pool32 sync.Pool
)

func getWork[T elem](na, nb int) *work[T] {
	p := &pool64
	var zero T
	if _, ok := any(zero).(float32); ok {
		p = &pool32
	}
	w, _ := p.Get().(*work[T])
	if w == nil {
		w = new(work[T])
	}
	if cap(w.a) < na {
		w.a = make([]T, na)
	}
	if cap(w.b) < nb {
		w.b = make([]T, nb)
	}
	w.a, w.b = w.a[:na], w.b[:nb]
	return w
}

func putWork[T elem](w *work[T]) {
	var zero T
	if _, ok := any(zero).(float32); ok {
		pool32.Put(w)
		return
	}
	pool64.Put(w)
}

// threads returns the number of goroutines for a call: t, or GOMAXPROCS
// when t ≤ 0.
func threads(t int) int {
	if t > 0 {
		return t
	}
	return runtime.GOMAXPROCS(0)
}

// scaleC sets the m×n matrix C to beta·C (zero, without reading it, when
// beta = 0).
func scaleC[T elem](m, n int, beta T, c []T, ldc int) {
	if beta == 1 {
		return
	}
	for i := range m {
		row := c[i*ldc : i*ldc+n]
		if beta == 0 {
			clear(row)
			continue
		}
		for j := range row {
			row[j] *= beta
		}
	}
}

// gemm computes C = alpha·op(A)·op(B) + beta·C (row-major; op(A) m×k,
// op(B) k×n) with the micro-kernel kn on up to par goroutines, splitting
// C in row blocks (or column blocks when it is wide). Arguments are
// checked by the caller.
func gemm[T elem](kn kernel[T], par int, tA, tB bool, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) {
	if m == 0 || n == 0 {
		return
	}
	if k == 0 || alpha == 0 {
		scaleC(m, n, beta, c, ldc)
		return
	}
	w := par
	if m*n*k < parMin {
		w = 1
	}
	rows := m >= n
	unit := kn.nr
	if rows {
		unit = kn.mr
	}
	dim := n
	if rows {
		dim = m
	}
	w = min(w, (dim+unit-1)/unit)
	if w <= 1 {
		gemmSerial(kn, tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	var wg sync.WaitGroup
	for t := range w {
		lo := t * dim / w / unit * unit
		hi := (t + 1) * dim / w / unit * unit
		if t == w-1 {
			hi = dim
		}
		if hi <= lo {
			continue
		}
		var run func()
		if rows {
			aOff := lo * lda
			if tA {
				aOff = lo
			}
			run = func() {
				gemmSerial(kn, tA, tB, hi-lo, n, k, alpha, a[aOff:], lda, b, ldb, beta, c[lo*ldc:], ldc)
			}
		} else {
			bOff := lo
			if tB {
				bOff = lo * ldb
			}
			run = func() {
				gemmSerial(kn, tA, tB, m, hi-lo, k, alpha, a, lda, b[bOff:], ldb, beta, c[lo:], ldc)
			}
		}
		if t == w-1 {
			run()
			continue
		}
		wg.Go(run)
	}
	wg.Wait()
}

// gemmSerial is gemm on the calling goroutine: the five loops of Goto &
// van de Geijn (nc columns of B, kc steps, mc rows of A, then nr and mr
// around the micro-kernel).
func gemmSerial[T elem](kn kernel[T], tA, tB bool, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) {
	gemmTri(kn, tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, full, 0)
}

// Which elements of C a product writes: all, or those on and above
// (upper) or on and below (lower) the diagonal row = column + off.
const (
	full = iota
	upperTri
	lowerTri
)

// gemmTri is gemmSerial restricted to the triangle tri of C (row i,
// column j kept when i ≤ j+off for upperTri, i ≥ j+off for lowerTri):
// micro-tiles outside it are skipped, tiles across its edge go through
// the scratch tile. B is packed once for every row of C, as syrk needs.
func gemmTri[T elem](kn kernel[T], tA, tB bool, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int, tri, off int) {
	mr, nr := kn.mr, kn.nr
	nc := min(ncSize, (n+nr-1)/nr*nr)
	mc := min(mcSize, (m+mr-1)/mr*mr)
	kc := min(kcSize, k)
	ws := getWork[T](mc*kc, nc*kc)
	defer putWork(ws)
	tile := ws.tile[:mr*nr]
	for jc := 0; jc < n; jc += ncSize {
		ncur := min(ncSize, n-jc)
		for pc := 0; pc < k; pc += kcSize {
			kcur := min(kcSize, k-pc)
			packB(ws.b, tB, b, ldb, pc, kcur, jc, ncur, nr)
			bt := beta
			if pc > 0 {
				bt = 1
			}
			for ic := 0; ic < m; ic += mcSize {
				mcur := min(mcSize, m-ic)
				if (tri == upperTri && ic > jc+ncur-1+off) || (tri == lowerTri && ic+mcur-1 < jc+off) {
					continue // the whole block lies outside the triangle
				}
				packA(ws.a, tA, a, lda, ic, mcur, pc, kcur, mr, alpha)
				for jr := 0; jr < ncur; jr += nr {
					nw := min(nr, ncur-jr)
					bp := &ws.b[jr*kcur]
					gj := jc + jr + off
					for ir := 0; ir < mcur; ir += mr {
						mh := min(mr, mcur-ir)
						gi := ic + ir
						whole := true
						switch tri {
						case upperTri:
							if gi > gj+nw-1 {
								continue
							}
							whole = gi+mh-1 <= gj
						case lowerTri:
							if gi+mh-1 < gj {
								continue
							}
							whole = gi >= gj+nw-1
						}
						ap := &ws.a[ir*kcur]
						ci := (ic+ir)*ldc + jc + jr
						if whole && mh == mr && nw == nr {
							kn.fn(kcur, ap, bp, &c[ci], ldc, bt)
							continue
						}
						kn.fn(kcur, ap, bp, &tile[0], nr, 0)
						for i := range mh {
							row := c[ci+i*ldc : ci+i*ldc+nw]
							t := tile[i*nr : i*nr+nw]
							j0, j1 := 0, nw
							if !whole {
								if tri == upperTri {
									j0 = min(nw, max(0, gi+i-gj)) // j+gj ≥ row
								} else {
									j1 = max(0, min(nw, gi+i-gj+1)) // j+gj ≤ row
								}
							}
							if bt == 0 {
								copy(row[j0:j1], t[j0:j1])
								continue
							}
							for j := j0; j < j1; j++ {
								row[j] = t[j] + bt*row[j]
							}
						}
					}
				}
			}
		}
	}
}

// copyN copies n values from src to dst, inline for the panel widths
// (a runtime memmove call costs more than the move itself at these sizes).
func copyN[T elem](dst, src []T, n int) {
	if n == 16 {
		d, s := dst[:16:16], src[:16:16]
		d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7] = s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]
		d[8], d[9], d[10], d[11], d[12], d[13], d[14], d[15] = s[8], s[9], s[10], s[11], s[12], s[13], s[14], s[15]
		return
	}
	if n == 12 {
		d, s := dst[:12:12], src[:12:12]
		d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7] = s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]
		d[8], d[9], d[10], d[11] = s[8], s[9], s[10], s[11]
		return
	}
	switch n {
	case 4:
		*(*[4]T)(dst) = *(*[4]T)(src)
	case 6:
		*(*[6]T)(dst) = *(*[6]T)(src)
	case 8:
		*(*[8]T)(dst) = *(*[8]T)(src)
	case 12:
		*(*[12]T)(dst) = *(*[12]T)(src)
	case 16:
		*(*[16]T)(dst) = *(*[16]T)(src)
	case 32:
		*(*[32]T)(dst) = *(*[32]T)(src)
	default:
		copy(dst[:n], src[:n])
	}
}

// packB packs op(B)[pc:pc+kcur, jc:jc+ncur] into panels of nr columns,
// kcur rows of nr values each, zero-padded. Rows of a stored B are read
// whole, in order.
func packB[T elem](dst []T, tB bool, b []T, ldb, pc, kcur, jc, ncur, nr int) {
	if !tB {
		full := ncur / nr * nr
		for p := range kcur {
			row := b[(pc+p)*ldb+jc:][:ncur]
			for j0 := 0; j0 < full; j0 += nr {
				copyN(dst[j0*kcur+p*nr:], row[j0:], nr)
			}
			if full < ncur {
				dd := dst[full*kcur+p*nr : full*kcur+p*nr+nr]
				copy(dd, row[full:])
				clear(dd[ncur-full:])
			}
		}
		return
	}
	for j0 := 0; j0 < ncur; j0 += nr {
		nw := min(nr, ncur-j0)
		d := dst[j0*kcur : j0*kcur+nr*kcur]
		for jj := range nw {
			src := b[(jc+j0+jj)*ldb+pc:][:kcur]
			for p, v := range src {
				d[p*nr+jj] = v
			}
		}
		if nw < nr {
			for p := range kcur {
				clear(d[p*nr+nw : p*nr+nr])
			}
		}
	}
}

// packA packs alpha·op(A)[ic:ic+mcur, pc:pc+kcur] into panels of mr
// rows, kcur columns of mr values each, zero-padded.
func packA[T elem](dst []T, tA bool, a []T, lda, ic, mcur, pc, kcur, mr int, alpha T) {
	if tA {
		full := mcur / mr * mr
		for p := range kcur {
			row := a[(pc+p)*lda+ic:][:mcur]
			if alpha != 1 {
				for i0 := 0; i0 < mcur; i0 += mr {
					dd := dst[i0*kcur+p*mr : i0*kcur+p*mr+mr]
					for i, v := range row[i0:min(mcur, i0+mr)] {
						dd[i] = alpha * v
					}
				}
			} else {
				for i0 := 0; i0 < full; i0 += mr {
					copyN(dst[i0*kcur+p*mr:], row[i0:], mr)
				}
				if full < mcur {
					copy(dst[full*kcur+p*mr:], row[full:])
				}
			}
			if full < mcur {
				clear(dst[full*kcur+p*mr+mcur-full : full*kcur+p*mr+mr])
			}
		}
		return
	}
	for i0 := 0; i0 < mcur; i0 += mr {
		mh := min(mr, mcur-i0)
		d := dst[i0*kcur : i0*kcur+mr*kcur]
		if mh == mr && mr%4 == 0 {
			// four rows at a time: four reads, four adjacent writes per step
			for ii := 0; ii < mr; ii += 4 {
				r0 := a[(ic+i0+ii)*lda+pc:][:kcur]
				r1 := a[(ic+i0+ii+1)*lda+pc:][:kcur]
				r2 := a[(ic+i0+ii+2)*lda+pc:][:kcur]
				r3 := a[(ic+i0+ii+3)*lda+pc:][:kcur]
				for p := range r0 {
					q := d[p*mr+ii : p*mr+ii+4 : p*mr+ii+4]
					q[0], q[1], q[2], q[3] = alpha*r0[p], alpha*r1[p], alpha*r2[p], alpha*r3[p]
				}
			}
			continue
		}
		for ii := range mh {
			src := a[(ic+i0+ii)*lda+pc:][:kcur]
			if alpha == 1 {
				for p, v := range src {
					d[p*mr+ii] = v
				}
			} else {
				for p, v := range src {
					d[p*mr+ii] = alpha * v
				}
			}
		}
		if mh < mr {
			for p := range kcur {
				clear(d[p*mr+mh : p*mr+mr])
			}
		}
	}
}
