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
// runs down an mc×kc block of A (768 KiB, in a 2 MiB L2; fewer B
// micro-panel reloads than at mc = 192, and a 193-row op(A) in one
// block rather than 192 + 1); a kc×nc panel of B (1 MiB) is packed once
// per kc step.
const (
	kcSize = 256
	mcSize = 384
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

// aWholeMax is the largest m for which gemmTri, when k ≤ kcSize, packs
// all of op(A) at once (at most 384×256 float64, 768 KiB, within L2) and
// reuses it for every nc block of B, instead of packing it again for
// each of them. (With more kc steps the jc-outer order stays: its C
// block stays in L2 across the kc steps.)
const aWholeMax = 384

// gemmTri is gemmSerial restricted to the triangle tri of C (row i,
// column j kept when i ≤ j+off for upperTri, i ≥ j+off for lowerTri):
// micro-tiles outside it are skipped, tiles across its edge go through
// the scratch tile. B is packed once for every row of C, as syrk needs;
// A (when m ≤ aWholeMax and k ≤ kcSize) once for every column of C.
func gemmTri[T elem](kn kernel[T], tA, tB bool, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int, tri, off int) {
	mr, nr := kn.mr, kn.nr
	nc := min(ncSize, (n+nr-1)/nr*nr)
	mc := min(mcSize, (m+mr-1)/mr*mr)
	kc := min(kcSize, k)
	aWhole := m <= aWholeMax && k <= kcSize
	if aWhole {
		mc = (m + mr - 1) / mr * mr
	}
	ws := getWork[T](mc*kc, nc*kc)
	defer putWork(ws)
	tile := ws.tile[:mr*nr]
	if aWhole {
		for pc := 0; pc < k; pc += kcSize {
			kcur := min(kcSize, k-pc)
			packA(ws.a, tA, a, lda, 0, m, pc, kcur, mr, alpha)
			bt := beta
			if pc > 0 {
				bt = 1
			}
			for jc := 0; jc < n; jc += ncSize {
				ncur := min(ncSize, n-jc)
				if (tri == upperTri && 0 > jc+ncur-1+off) || (tri == lowerTri && m-1 < jc+off) {
					continue // the whole block lies outside the triangle
				}
				packB(ws.b, tB, b, ldb, pc, kcur, jc, ncur, nr)
				macroTile(kn, ws.a, ws.b, tile, 0, m, jc, ncur, kcur, bt, c, ldc, tri, off)
			}
		}
		return
	}
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
				macroTile(kn, ws.a, ws.b, tile, ic, mcur, jc, ncur, kcur, bt, c, ldc, tri, off)
			}
		}
	}
}

// macroTile runs the micro-kernel over C[ic:ic+mcur, jc:jc+ncur] (within
// the triangle tri) from the packed A block pa (rows ic.., kcur steps)
// and the packed B panel pb (columns jc..), adding bt·C.
func macroTile[T elem](kn kernel[T], pa, pb, tile []T, ic, mcur, jc, ncur, kcur int, bt T, c []T, ldc int, tri, off int) {
	mr, nr := kn.mr, kn.nr
	for jr := 0; jr < ncur; jr += nr {
		nw := min(nr, ncur-jr)
		bp := &pb[jr*kcur]
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
			ap := &pa[ir*kcur]
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

// packRows packs a rows×cols block of a row-major matrix (src, row
// stride lds) into panels of w columns, rows rows of w values each,
// zero-padded, scaled by alpha: the layout of a B micro-panel for a
// stored B, of an A micro-panel for a stored Aᵀ. With AVX (packAsm),
// packCopy fills one panel after another, w values from each source row
// in turn: sequential writes (row by row, the writes of one row land
// rows·w values apart, often a multiple of 4 KiB, in the same L1 sets).
// Otherwise Go loops copy a whole array per panel width.
func packRows[T elem](dst, src []T, lds, rows, cols, w int, alpha T) {
	full := cols / w * w
	if alpha == 1 && packAsm && full > 0 && rows > 0 {
		es := int(unsafe.Sizeof(alpha))
		_ = src[(rows-1)*lds+full-1] // the last value read
		_ = dst[full*rows-1]         // the last value written
		for j0 := 0; j0 < full; j0 += w {
			packCopy(unsafe.Pointer(&dst[j0*rows]), unsafe.Pointer(&src[j0]), w*es, rows, w*es, lds*es)
		}
	} else if alpha == 1 {
		switch w {
		case 16:
			for p := range rows {
				row := src[p*lds:][:full]
				for j0 := 0; j0+16 <= len(row); j0 += 16 {
					*(*[16]T)(dst[j0*rows+p*16:]) = *(*[16]T)(row[j0:])
				}
			}
		case 12:
			for p := range rows {
				row := src[p*lds:][:full]
				for j0 := 0; j0+12 <= len(row); j0 += 12 {
					*(*[12]T)(dst[j0*rows+p*12:]) = *(*[12]T)(row[j0:])
				}
			}
		case 32:
			for p := range rows {
				row := src[p*lds:][:full]
				for j0 := 0; j0+32 <= len(row); j0 += 32 {
					*(*[32]T)(dst[j0*rows+p*32:]) = *(*[32]T)(row[j0:])
				}
			}
		case 8:
			for p := range rows {
				row := src[p*lds:][:full]
				for j0 := 0; j0+8 <= len(row); j0 += 8 {
					*(*[8]T)(dst[j0*rows+p*8:]) = *(*[8]T)(row[j0:])
				}
			}
		case 4:
			for p := range rows {
				row := src[p*lds:][:full]
				for j0 := 0; j0+4 <= len(row); j0 += 4 {
					*(*[4]T)(dst[j0*rows+p*4:]) = *(*[4]T)(row[j0:])
				}
			}
		default:
			for p := range rows {
				row := src[p*lds:][:full]
				for j0 := 0; j0 < full; j0 += w {
					copy(dst[j0*rows+p*w:][:w], row[j0:j0+w])
				}
			}
		}
	} else {
		for p := range rows {
			row := src[p*lds:][:full]
			for j0 := 0; j0 < full; j0 += w {
				d := dst[j0*rows+p*w:][:w]
				for j, v := range row[j0 : j0+w] {
					d[j] = alpha * v
				}
			}
		}
	}
	if full == cols {
		return
	}
	// the last, partial panel
	e := dst[full*rows:][:rows*w]
	for p := range rows {
		d := e[p*w : p*w+w]
		for j, v := range src[p*lds+full : p*lds+cols] {
			d[j] = alpha * v
		}
		clear(d[cols-full:])
	}
}

// packCols packs the transpose of a cols×rows block of a row-major
// matrix (src, row stride lds) like packRows: source row j becomes
// column j of the packed block, so each panel of w columns gathers w
// source rows, eight (alpha = 1) or four at a time (sequential reads,
// adjacent writes).
func packCols[T elem](dst, src []T, lds, rows, cols, w int, alpha T) {
	for j0 := 0; j0 < cols; j0 += w {
		nw := min(w, cols-j0)
		d := dst[j0*rows : j0*rows+w*rows]
		jj := 0
		if alpha == 1 && packT && unsafe.Sizeof(alpha) == 8 && rows >= 8 && nw >= 8 {
			kb := rows / 8
			for ; jj+8 <= nw; jj += 8 {
				_ = src[(j0+jj+7)*lds+rows-1] // the last value read
				_ = d[(rows-1)*w+jj+7]        // the last value written
				packT8x8((*float64)(unsafe.Pointer(&d[jj])), (*float64)(unsafe.Pointer(&src[(j0+jj)*lds])), w, lds, kb)
				for i := range 8 {
					for p, v := range src[(j0+jj+i)*lds+kb*8:][:rows-kb*8] {
						d[(kb*8+p)*w+jj+i] = v
					}
				}
			}
		}
		if alpha == 1 {
			for ; jj+8 <= nw; jj += 8 {
				r0 := src[(j0+jj)*lds:][:rows]
				r1 := src[(j0+jj+1)*lds:][:rows]
				r2 := src[(j0+jj+2)*lds:][:rows]
				r3 := src[(j0+jj+3)*lds:][:rows]
				r4 := src[(j0+jj+4)*lds:][:rows]
				r5 := src[(j0+jj+5)*lds:][:rows]
				r6 := src[(j0+jj+6)*lds:][:rows]
				r7 := src[(j0+jj+7)*lds:][:rows]
				for p := range r0 {
					q := (*[8]T)(d[p*w+jj:])
					q[0], q[1], q[2], q[3] = r0[p], r1[p], r2[p], r3[p]
					q[4], q[5], q[6], q[7] = r4[p], r5[p], r6[p], r7[p]
				}
			}
		}
		for ; jj+4 <= nw; jj += 4 {
			r0 := src[(j0+jj)*lds:][:rows]
			r1 := src[(j0+jj+1)*lds:][:rows]
			r2 := src[(j0+jj+2)*lds:][:rows]
			r3 := src[(j0+jj+3)*lds:][:rows]
			if alpha == 1 {
				for p := range r0 {
					q := (*[4]T)(d[p*w+jj:])
					q[0], q[1], q[2], q[3] = r0[p], r1[p], r2[p], r3[p]
				}
				continue
			}
			for p := range r0 {
				q := (*[4]T)(d[p*w+jj:])
				q[0], q[1], q[2], q[3] = alpha*r0[p], alpha*r1[p], alpha*r2[p], alpha*r3[p]
			}
		}
		for ; jj < nw; jj++ {
			for p, v := range src[(j0+jj)*lds:][:rows] {
				d[p*w+jj] = alpha * v
			}
		}
		if nw < w {
			for p := range rows {
				clear(d[p*w+nw : p*w+w])
			}
		}
	}
}

// packB packs op(B)[pc:pc+kcur, jc:jc+ncur] into panels of nr columns,
// kcur rows of nr values each, zero-padded.
func packB[T elem](dst []T, tB bool, b []T, ldb, pc, kcur, jc, ncur, nr int) {
	if !tB {
		packRows(dst, b[pc*ldb+jc:], ldb, kcur, ncur, nr, 1)
		return
	}
	packCols(dst, b[jc*ldb+pc:], ldb, kcur, ncur, nr, 1)
}

// packA packs alpha·op(A)[ic:ic+mcur, pc:pc+kcur] into panels of mr
// rows, kcur columns of mr values each, zero-padded.
func packA[T elem](dst []T, tA bool, a []T, lda, ic, mcur, pc, kcur, mr int, alpha T) {
	if tA {
		packRows(dst, a[pc*lda+ic:], lda, kcur, mcur, mr, alpha)
		return
	}
	packCols(dst, a[ic*lda+pc:], lda, kcur, mcur, mr, alpha)
}
