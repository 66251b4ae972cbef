// Package cpufeat reports the vector instruction sets the CPU and the
// operating system support, for the packages that choose an assembly
// kernel at run time (toolkit/neurons, toolkit/layers).
//
// On amd64 it reads CPUID and, for the AVX register state, XGETBV: AVX
// and AVX2 need the OS to save the YMM state (XCR0 bits 1 and 2), AVX-512
// also the opmask and ZMM state (bits 5 to 7). On arm64 Advanced SIMD
// (NEON) is part of the architecture. Elsewhere every feature is false.
// (macOS turns the AVX-512 state on at a thread's first AVX-512
// instruction, so XCR0 may not show it: AVX-512 then reads as absent and
// callers use their AVX2 code, which is slower but correct.)
//
// The values are read once, when the package is initialised, and never
// change.
package cpufeat
