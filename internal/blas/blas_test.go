package blas

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// forEachKernel runs f with every usable micro-kernel forced in turn.
func forEachKernel(t *testing.T, f func(t *testing.T)) {
	for i := range kernels64 {
		t.Run(kernels64[i].name, func(t *testing.T) {
			defer useKernel(i)()
			f(t)
		})
	}
}

// randMat returns r×c values with row stride ld ≥ c; the padding holds
// NaN (never read).
func randMat(rng *rand.Rand, r, c, ld int) []float64 {
	m := make([]float64, max(0, (r-1)*ld+c))
	for i := range m {
		if c > 0 && i%ld >= c {
			m[i] = math.NaN()
			continue
		}
		m[i] = rng.Float64()*2 - 1
	}
	return m
}

var transposes = []blas.Transpose{blas.NoTrans, blas.Trans}

// refGemm is the triple loop, and the bound k·|A|·|B| of its rounding.
func refGemm(tA, tB blas.Transpose, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) (ref, bound []float64) {
	ref = make([]float64, m*n)
	bound = make([]float64, m*n)
	for i := range m {
		for j := range n {
			var s, s1 float64
			for p := range k {
				var av, bv float64
				if tA == blas.Trans {
					av = a[p*lda+i]
				} else {
					av = a[i*lda+p]
				}
				if tB == blas.Trans {
					bv = b[j*ldb+p]
				} else {
					bv = b[p*ldb+j]
				}
				s += av * bv
				s1 += math.Abs(av * bv)
			}
			ref[i*n+j] = alpha * s
			bound[i*n+j] = math.Abs(alpha) * s1
			if beta != 0 {
				ref[i*n+j] += beta * c[i*ldc+j]
				bound[i*n+j] += math.Abs(beta * c[i*ldc+j])
			}
		}
	}
	return ref, bound
}

func TestDgemm(t *testing.T) {
	forEachKernel(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(1, 2))
		sizes := []int{0, 1, 2, 3, 5, 7, 11, 12, 13, 16, 17, 31, 33, 47, 70}
		for _, tA := range transposes {
			for _, tB := range transposes {
				for it := range 60 {
					m, n, k := sizes[rng.IntN(len(sizes))], sizes[rng.IntN(len(sizes))], sizes[rng.IntN(len(sizes))]
					alpha := []float64{1, 0, -1.5, 0.25}[it%4]
					beta := []float64{0, 1, 0.5, -2, 0}[it%5]
					checkDgemm(t, rng, tA, tB, m, n, k, alpha, beta, Float64{Threads: 1 + it%2})
				}
			}
		}
	})
}

// TestDgemmLarge covers several kc, mc and nc blocks and the split across
// goroutines.
func TestDgemmLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("large products")
	}
	forEachKernel(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(3, 4))
		for _, s := range [][3]int{{300, 70, 530}, {37, 4200, 260}, {401, 385, 9}, {210, 1100, 192}, {390, 600, 256}} {
			for _, tA := range transposes {
				for _, tB := range transposes {
					checkDgemm(t, rng, tA, tB, s[0], s[1], s[2], 0.75, 0.5, Float64{Threads: 2})
				}
			}
		}
	})
}

func checkDgemm(t *testing.T, rng *rand.Rand, tA, tB blas.Transpose, m, n, k int, alpha, beta float64, impl Float64) {
	t.Helper()
	ra, ca := m, k
	if tA == blas.Trans {
		ra, ca = k, m
	}
	rb, cb := k, n
	if tB == blas.Trans {
		rb, cb = n, k
	}
	lda, ldb, ldc := max(1, ca)+rng.IntN(3), max(1, cb)+rng.IntN(3), max(1, n)+rng.IntN(3)
	a, b, c := randMat(rng, ra, ca, lda), randMat(rng, rb, cb, ldb), randMat(rng, m, n, ldc)
	if beta == 0 {
		for i := range c {
			c[i] = math.NaN() // beta = 0 must not read C
		}
	}
	ref, bound := refGemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
	orig := append([]float64(nil), c...)
	want := append([]float64(nil), c...)
	gonum.Implementation{}.Dgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, want, ldc)
	impl.Dgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
	eps := 0x1p-52 * float64(k+2)
	for i := range m {
		for j := range n {
			got := c[i*ldc+j]
			if d := math.Abs(got - ref[i*n+j]); !(d <= eps*bound[i*n+j]) {
				t.Fatalf("%v%v m=%d n=%d k=%d alpha=%v beta=%v: C[%d,%d] = %v, triple loop %v (gonum %v)",
					tA, tB, m, n, k, alpha, beta, i, j, got, ref[i*n+j], want[i*ldc+j])
			}
		}
		for j := n; j < ldc && i*ldc+j < len(c); j++ {
			if math.Float64bits(c[i*ldc+j]) != math.Float64bits(orig[i*ldc+j]) {
				t.Fatalf("padding C[%d,%d] written", i, j)
			}
		}
	}
}

func TestSgemm(t *testing.T) {
	forEachKernel(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(5, 6))
		for _, tA := range transposes {
			for _, tB := range transposes {
				for it := range 60 {
					m, n, k := rng.IntN(71), rng.IntN(71), rng.IntN(71)
					if it%30 == 1 && !testing.Short() {
						m, n, k = 200+rng.IntN(100), 100+rng.IntN(300), 300+rng.IntN(100)
					}
					alpha := []float32{1, 0, -1.5, 0.25}[it%4]
					beta := []float32{0, 1, 0.5, -2, 0}[it%5]
					ra, ca := m, k
					if tA == blas.Trans {
						ra, ca = k, m
					}
					rb, cb := k, n
					if tB == blas.Trans {
						rb, cb = n, k
					}
					lda, ldb, ldc := max(1, ca)+rng.IntN(3), max(1, cb)+rng.IntN(3), max(1, n)+rng.IntN(3)
					a64, b64, c64 := randMat(rng, ra, ca, lda), randMat(rng, rb, cb, ldb), randMat(rng, m, n, ldc)
					a, b, c := to32(a64), to32(b64), to32(c64)
					if beta == 0 {
						for i := range c {
							c[i] = float32(math.NaN())
						}
					}
					for i := range c64 {
						c64[i] = float64(c[i])
					}
					ref, bound := refGemm(tA, tB, m, n, k, float64(alpha), to64(a), lda, to64(b), ldb, float64(beta), c64, ldc)
					Float32{Threads: 1 + it%2}.Sgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
					eps := 0x1p-23 * float64(k+2)
					for i := range m {
						for j := range n {
							got := float64(c[i*ldc+j])
							if d := math.Abs(got - ref[i*n+j]); !(d <= eps*bound[i*n+j]) {
								t.Fatalf("%v%v m=%d n=%d k=%d alpha=%v beta=%v: C[%d,%d] = %v, want %v", tA, tB, m, n, k, alpha, beta, i, j, got, ref[i*n+j])
							}
						}
					}
				}
			}
		}
	})
}

func to32(x []float64) []float32 {
	y := make([]float32, len(x))
	for i, v := range x {
		y[i] = float32(v)
	}
	return y
}

func to64(x []float32) []float64 {
	y := make([]float64, len(x))
	for i, v := range x {
		y[i] = float64(v)
	}
	return y
}

func TestDsyrk(t *testing.T) {
	forEachKernel(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(7, 8))
		for _, ul := range []blas.Uplo{blas.Upper, blas.Lower} {
			for _, tr := range transposes {
				for it := range 40 {
					n, k := rng.IntN(71), rng.IntN(71)
					if it%20 == 0 && !testing.Short() {
						n, k = 200+rng.IntN(150), 100+rng.IntN(200)
					}
					alpha := []float64{1, 0, -1.5, 0.25}[it%4]
					beta := []float64{0, 1, 0.5, -2, 0}[it%5]
					ra, ca := n, k
					if tr == blas.Trans {
						ra, ca = k, n
					}
					lda, ldc := max(1, ca)+rng.IntN(3), max(1, n)+rng.IntN(3)
					a, c := randMat(rng, ra, ca, lda), randMat(rng, n, n, ldc)
					if beta == 0 {
						for i := range c {
							c[i] = math.NaN()
						}
					}
					orig := append([]float64(nil), c...)
					tB := blas.Trans
					if tr == blas.Trans {
						tB = blas.NoTrans
					}
					ref, bound := refGemm(tr, tB, n, n, k, alpha, a, lda, a, lda, beta, c, ldc)
					Float64{Threads: 1 + it%2}.Dsyrk(ul, tr, n, k, alpha, a, lda, beta, c, ldc)
					eps := 0x1p-52 * float64(k+2)
					for i := range n {
						for j := range n {
							got := c[i*ldc+j]
							inTri := (ul == blas.Upper) == (j >= i) || i == j
							if !inTri {
								if math.Float64bits(got) != math.Float64bits(orig[i*ldc+j]) {
									t.Fatalf("%v %v n=%d k=%d: C[%d,%d] outside the triangle written", ul, tr, n, k, i, j)
								}
								continue
							}
							if d := math.Abs(got - ref[i*n+j]); !(d <= eps*bound[i*n+j]) {
								t.Fatalf("%v %v n=%d k=%d alpha=%v beta=%v: C[%d,%d] = %v, want %v", ul, tr, n, k, alpha, beta, i, j, got, ref[i*n+j])
							}
						}
					}
				}
			}
		}
	})
}

func TestDtrsm(t *testing.T) {
	forEachKernel(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(9, 10))
		for _, side := range []blas.Side{blas.Left, blas.Right} {
			for _, ul := range []blas.Uplo{blas.Upper, blas.Lower} {
				for _, tr := range transposes {
					for _, dg := range []blas.Diag{blas.NonUnit, blas.Unit} {
						for it := range 12 {
							m, n := rng.IntN(71), rng.IntN(71)
							if it%6 == 0 && !testing.Short() {
								m, n = 100+rng.IntN(200), 200+rng.IntN(300)
							}
							alpha := []float64{1, 0.5, -2, 0}[it%4]
							k := n
							if side == blas.Left {
								k = m
							}
							lda, ldb := max(1, k)+rng.IntN(3), max(1, n)+rng.IntN(3)
							a := randMat(rng, k, k, lda)
							for i := range k { // well conditioned
								a[i*lda+i] = 2 + rng.Float64()
								for j := range k {
									if j != i {
										a[i*lda+j] /= float64(k)
									}
								}
							}
							b := randMat(rng, m, n, ldb)
							want := append([]float64(nil), b...)
							gonum.Implementation{}.Dtrsm(side, ul, tr, dg, m, n, alpha, a, lda, want, ldb)
							Float64{Threads: 1 + it%2}.Dtrsm(side, ul, tr, dg, m, n, alpha, a, lda, b, ldb)
							for i := range m {
								for j := range n {
									got, w := b[i*ldb+j], want[i*ldb+j]
									if !(math.Abs(got-w) <= 1e-12*(1+math.Abs(w))) {
										t.Fatalf("%v %v %v %v m=%d n=%d alpha=%v: X[%d,%d] = %v, gonum %v", side, ul, tr, dg, m, n, alpha, i, j, got, w)
									}
								}
							}
						}
					}
				}
			}
		}
	})
}

// TestPanics: invalid arguments panic as gonum's do.
func TestPanics(t *testing.T) {
	for _, f := range []func(){
		func() {
			Float64{}.Dgemm(blas.NoTrans, blas.NoTrans, 2, 2, 2, 1, make([]float64, 3), 2, make([]float64, 4), 2, 0, make([]float64, 4), 2)
		},
		func() { Float64{}.Dgemm(blas.NoTrans, blas.NoTrans, -1, 2, 2, 1, nil, 2, nil, 2, 0, nil, 2) },
		func() {
			Float32{}.Sgemm(blas.NoTrans, blas.NoTrans, 2, 2, 2, 1, make([]float32, 4), 1, make([]float32, 4), 2, 0, make([]float32, 4), 2)
		},
		func() {
			Float64{}.Dsyrk(blas.Upper, blas.NoTrans, 3, 2, 1, make([]float64, 6), 2, 0, make([]float64, 8), 3)
		},
		func() {
			Float64{}.Dtrsm(blas.Left, blas.Upper, blas.NoTrans, blas.NonUnit, 3, 2, 1, make([]float64, 8), 3, make([]float64, 6), 2)
		},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Error("no panic")
				}
			}()
			f()
		}()
	}
	_ = fmt.Sprint
}
