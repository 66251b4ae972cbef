// Package machine describes the computer and the binary a measurement ran
// on, for the JSON every `neurogo bench …` run writes and the generated
// pages under docs/measurements render.
//
// A Description holds the CPU model (/proc/cpuinfo), the vector
// extensions the simulator's loops care about (avx2, fma, avx512f), the
// logical cores the process may use, GOMAXPROCS, the memory total
// (/proc/meminfo), the operating system (/etc/os-release) and kernel
// release, the Go version, the GOEXPERIMENT and build tags the binary was
// built with (runtime/debug.ReadBuildInfo), the BLAS in use
// (toolkit/solvers.BLAS: OpenBLAS with the build tag openblas, gonum's
// pure-Go BLAS otherwise) and the versions of the peers a bench ran
// beside (Nengo, NumPy, SciPy, PyTorch, ipykernel), which the bench adds
// with SetPeer.
//
// A Run is one invocation: the command line, the date (UTC) and the
// Description. Describe never fails: what cannot be read is left empty.
//
// `neurogo bench kernel` is driven from Python; the binary hands the Run to
// it as JSON in the environment variable EnvRun, so the Python side adds
// only its own peers.
package machine
