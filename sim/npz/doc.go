// Package npz reads and writes NumPy .npz archives of float64 arrays: the
// format neurogo uses to exchange built parameters (gains, biases,
// encoders, decoders) and probe data with Nengo, and the format of the
// Nengo reference fixtures in sim/testdata/nengo.
//
// An archive maps keys to Arrays. Keys are member names without ".npy",
// exactly as numpy.load reports them; they may contain '/'
// ("ens/a/gain"). An Array is a shape and its elements in row-major (C)
// order.
//
// Reading accepts .npy members of format version 1.0 or 2.0 whose dtype
// is a real number or a boolean of either byte order (f8, f4, i1–i8,
// u1–u8, b1); every element becomes a float64 (true is 1, false 0;
// integers beyond ±2^53 round). Fortran-order members are transposed to C
// order. Stored (numpy.savez) and deflated (numpy.savez_compressed)
// members are both read. Complex, string, object and structured dtypes are
// errors. A corrupt or truncated archive gives an error naming the file
// and key, never a panic; the member's CRC-32 is verified and a member
// must hold exactly the bytes its header promises.
//
// Writing produces what numpy.savez_compressed does: one deflated member
// per key, dtype '<f8', C order, with header bytes identical to numpy's.
// Members are written in sorted key order with zero timestamps, so the
// same arrays always give the same file.
//
// Reading is built on github.com/sbinet/npyio v0.6.0: its npz.Reader
// lists and opens the members and its npy parser reads each header, after
// a check here that the header has numpy's canonical layout (npyio slices
// the dictionary by position and panics on anything else). The element
// data is decoded here, in bounded chunks: npyio's typed reader allocates
// whatever a header claims before reading and ignores truncation. Writing
// uses archive/zip and the .npy format directly, because npyio's writer
// cannot give a flat slice more than two dimensions and does not align
// headers as numpy does.
//
//	arrays, err := npz.Read("sim/testdata/nengo/lif_ens.npz")
//	if err != nil {
//		return err
//	}
//	gain := arrays["ens/a/gain"].Data            // (50,)
//	enc := arrays["ens/a/encoders"].Rows()       // 50 rows of 1
//	dt := arrays["meta/dt"].At()                 // 0-d
//	err = npz.Write("out.npz", map[string]npz.Array{
//		"probe/x": {Shape: []int{1000, 1}, Data: x},
//	})
package npz
