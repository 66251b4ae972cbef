// Package imagediff compares two images with a tolerance, for golden-image
// tests of rendered plots (package viz's gallery).
//
// Two renderings of the same plot may differ slightly from one build to
// another (anti-aliasing, font rasterisation, floating-point rounding in a
// path's coordinates) while a real change of the plot moves or recolours
// whole lines, labels or areas. Compare therefore counts the pixels that
// differ by more than a per-channel tolerance and reports the fraction;
// a test fails when the fraction is above its limit:
//
//	res, err := imagediff.ComparePNG(got, golden, imagediff.Default)
//	if err != nil { ... }          // undecodable, or the sizes differ
//	if !res.OK() { t.Error(res) }  // "1234 of 1024000 pixels (0.12 %) differ ..."
//
// # Rules
//
//   - The images must have the same size; otherwise Compare returns an
//     error (a size change is never within tolerance).
//   - A pixel differs when any channel of its 8-bit premultiplied RGBA
//     colour (red, green, blue, alpha) differs by more than
//     Options.Tolerance (0–255).
//   - Result.OK holds when the fraction of differing pixels is at most
//     Options.MaxFraction. The zero Options compare exactly.
//   - Diff draws the differing pixels in magenta over a faded copy of the
//     reference image, so a failing test can write a picture of what moved.
//
// Compare works on whole images in one pass over their pixels and never
// panics on its inputs.
package imagediff
