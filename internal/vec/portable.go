//go:build purego || !(amd64 || arm64)

package vec

// Vectorized reports whether the loops use SIMD instructions.
const Vectorized = false

// Kernels names the inner loops this binary runs, for version output and
// measurement headers (a slow build should be visible).
func Kernels() string {
	return "portable Go loops (the purego build tag, or no vector kernels for this architecture)"
}

func relu(out, J []float64, amp float64) { reluGo(out, J, amp) }
func axpy(y, a []float64, s float64)     { axpyGo(y, a, s) }
func scale(y, a []float64, s float64)    { scaleGo(y, a, s) }
func mulInc(y, a, x []float64)           { mulIncGo(y, a, x) }
func add(y, x []float64)                 { addGo(y, x) }
func dot(a, x []float64) float64         { return dotGo(a, x) }
func dot4(a0, a1, a2, a3, x []float64) (float64, float64, float64, float64) {
	return dotGo(a0, x), dotGo(a1[:len(a0)], x), dotGo(a2[:len(a0)], x), dotGo(a3[:len(a0)], x)
}
func dotAxpy(w, x, a []float64, s float64) (float64, bool) { return dotAxpyGo(w, x, a, s) }
func dot2(a, b, x []float64) (float64, float64) {
	return dotGo(a, x), dotGo(b[:len(a)], x)
}

func axpyTo(y, b, a []float64, s float64) { axpyToGo(y, b, a, s) }

func ensDot2(a []float64, keep bool, bias, enc []float64, x, amp float64, d1, d2 []float64) (s1, s2 float64) {
	return ensDot2Go(a, bias, enc, x, amp, d1, d2)
}

func axpyRelu(out, b, a []float64, s, amp float64) { axpyReluGo(out, b, a, s, amp) }

func gainRelu(out, x, g, b []float64, amp float64) { gainReluGo(out, x, g, b, amp) }

func countPositive(cnt, x, g, b []float64, mx float64) float64 {
	return countPositiveGo(cnt, x, g, b, mx)
}

func lif(p lifParams, J, out, voltage, refractory []float64) { lifGo(p, J, out, voltage, refractory) }

// ClearUpper is a no-op without vector code (see the amd64 build).
func ClearUpper() {}

func ensOctUnit1(p []float64, n int, x, s1 *[8]float64) {
	var s2 [8]float64
	ensOctGo(p, n, false, x, 1, s1, &s2)
}

func ensOctUnit2(p []float64, n int, x, s1, s2 *[8]float64) { ensOctGo(p, n, true, x, 1, s1, s2) }

func ensOctAmp(p []float64, n int, two bool, x *[8]float64, amp float64, s1, s2 *[8]float64) {
	ensOctGo(p, n, two, x, amp, s1, s2)
}

func dotRows(out, w []float64, nx int, rows []int, x []float64) { dotRowsGo(out, w, nx, rows, x) }

func lowpass(y, x, u []float64, a, b float64) { lowpassGo(y, x, u, a, b) }

func dotRowsGroup(out [][]float64, w []float64, nx int, x [][]float64) {
	for l := range out {
		dotRowsGo(out[l], w, nx, nil, x[l])
	}
}

func firstNaN(x []float64) int { return firstNaNGo(x) }

func ensOct1Lanes2(p []float64, n int, xa, xb, sa, sb *[8]float64) {
	var s2 [8]float64
	ensOctGo(p, n, false, xa, 1, sa, &s2)
	ensOctGo(p, n, false, xb, 1, sb, &s2)
}

func vecMat(y, x, m []float64, d int) { vecMatGo(y, x, m, d) }
