//go:build amd64 && !purego

#include "textflag.h"

// Float32 inner-product kernels. Every kernel computes the score of a
// (query, row) pair in one fixed order (see dot.go): element i goes into
// lane i%16 of a 16-lane accumulator by a fused multiply-add, the tail is
// zero-padded (masked loads), and the 16 lanes are summed by the tree of
// HSUM512/HSUM256. The AVX2 kernels hold the 16 lanes in two YMM registers
// (lanes 0-7 and 8-15), the AVX-512 kernels in one ZMM register, so both
// families give the same bits.

// HSUM512 sums the 16 lanes of Z (whose low halves are Y and X) into the
// low lane of X: lanes l and l+8, then l and l+4, l and l+2, l and l+1.
#define HSUM512(Z, Y, X, TY, TX) \
	VEXTRACTF64X4 $1, Z, TY \
	VADDPS        TY, Y, Y  \
	VEXTRACTF32X4 $1, Y, TX \
	VADDPS        TX, X, X  \
	VMOVHLPS      X, X, TX  \
	VADDPS        TX, X, X  \
	VMOVSHDUP     X, TX     \
	VADDSS        TX, X, X

// HSUM256 is HSUM512 for lanes 0-7 in YA (low half XA) and 8-15 in YB.
#define HSUM256(YA, XA, YB, TX) \
	VADDPS       YB, YA, YA \
	VEXTRACTF128 $1, YA, TX \
	VADDPS       TX, XA, XA \
	VMOVHLPS     XA, XA, TX \
	VADDPS       TX, XA, XA \
	VMOVSHDUP    XA, TX     \
	VADDSS       TX, XA, XA

// tailmask<> is 16 all-ones words then 16 zero words: the 32 bytes at
// word 16-r are the AVX2 load mask of lanes 0-7 for a tail of r < 16
// elements, and those at word 24-r the mask of lanes 8-15.

DATA tailmask<>+0(SB)/8, $0xffffffffffffffff
DATA tailmask<>+8(SB)/8, $0xffffffffffffffff
DATA tailmask<>+16(SB)/8, $0xffffffffffffffff
DATA tailmask<>+24(SB)/8, $0xffffffffffffffff
DATA tailmask<>+32(SB)/8, $0xffffffffffffffff
DATA tailmask<>+40(SB)/8, $0xffffffffffffffff
DATA tailmask<>+48(SB)/8, $0xffffffffffffffff
DATA tailmask<>+56(SB)/8, $0xffffffffffffffff
DATA tailmask<>+64(SB)/8, $0
DATA tailmask<>+72(SB)/8, $0
DATA tailmask<>+80(SB)/8, $0
DATA tailmask<>+88(SB)/8, $0
DATA tailmask<>+96(SB)/8, $0
DATA tailmask<>+104(SB)/8, $0
DATA tailmask<>+112(SB)/8, $0
DATA tailmask<>+120(SB)/8, $0
GLOBL tailmask<>(SB), RODATA|NOPTR, $128

// func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)
TEXT ·cpuid(SB), NOSPLIT, $0-24
	MOVL eaxArg+0(FP), AX
	MOVL ecxArg+4(FP), CX
	CPUID
	MOVL AX, eax+8(FP)
	MOVL BX, ebx+12(FP)
	MOVL CX, ecx+16(FP)
	MOVL DX, edx+20(FP)
	RET

// func xgetbv() (eax, edx uint32)
TEXT ·xgetbv(SB), NOSPLIT, $0-8
	MOVL $0, CX
	XGETBV
	MOVL AX, eax+0(FP)
	MOVL DX, edx+4(FP)
	RET

// AVX2MASKS loads the tail masks for a tail of CX (1-15) elements into
// Y10 (lanes 0-7) and Y11 (lanes 8-15); it clobbers DX and R10.
#define AVX2MASKS \
	LEAQ    tailmask<>(SB), DX \
	MOVQ    $16, R10           \
	SUBQ    CX, R10            \
	VMOVDQU (DX)(R10*4), Y10   \
	VMOVDQU 32(DX)(R10*4), Y11

// func dotAVX2(a, b *float32, n int) float32
TEXT ·dotAVX2(SB), NOSPLIT, $0-28
	MOVQ   a+0(FP), SI
	MOVQ   b+8(FP), DI
	MOVQ   n+16(FP), CX
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	XORQ   AX, AX
	MOVQ   CX, BX
	SHRQ   $4, BX
	JZ     tail

loop:
	VMOVUPS     (SI)(AX*1), Y2
	VMOVUPS     32(SI)(AX*1), Y3
	VFMADD231PS (DI)(AX*1), Y2, Y0
	VFMADD231PS 32(DI)(AX*1), Y3, Y1
	ADDQ        $64, AX
	DECQ        BX
	JNZ         loop

tail:
	ANDQ        $15, CX
	JZ          sum
	AVX2MASKS
	VMASKMOVPS  (SI)(AX*1), Y10, Y2
	VMASKMOVPS  32(SI)(AX*1), Y11, Y3
	VMASKMOVPS  (DI)(AX*1), Y10, Y4
	VMASKMOVPS  32(DI)(AX*1), Y11, Y5
	VFMADD231PS Y4, Y2, Y0
	VFMADD231PS Y5, Y3, Y1

sum:
	HSUM256(Y0, X0, Y1, X2)
	VZEROUPPER
	MOVSS X0, ret+24(FP)
	RET

// func dotAVX512(a, b *float32, n int) float32
TEXT ·dotAVX512(SB), NOSPLIT, $0-28
	MOVQ   a+0(FP), SI
	MOVQ   b+8(FP), DI
	MOVQ   n+16(FP), CX
	VPXORD Z0, Z0, Z0
	XORQ   AX, AX
	MOVQ   CX, BX
	SHRQ   $4, BX
	JZ     tail

loop:
	VMOVUPS     (SI)(AX*1), Z1
	VFMADD231PS (DI)(AX*1), Z1, Z0
	ADDQ        $64, AX
	DECQ        BX
	JNZ         loop

tail:
	ANDQ        $15, CX
	JZ          sum
	MOVL        $1, DX
	SHLL        CX, DX
	DECL        DX
	KMOVW       DX, K1
	VMOVUPS.Z   (SI)(AX*1), K1, Z1
	VMOVUPS.Z   (DI)(AX*1), K1, Z2
	VFMADD231PS Z2, Z1, Z0

sum:
	HSUM512(Z0, Y0, X0, Y1, X1)
	VZEROUPPER
	MOVSS X0, ret+24(FP)
	RET

// func dotRowsAVX2(q, x *float32, dim, n int, out *float32)
//
// Four rows at a time share each load of the query: eight accumulators
// (Y0-Y7, two per row) keep the FMA units busy.
TEXT ·dotRowsAVX2(SB), NOSPLIT, $0-40
	MOVQ q+0(FP), SI
	MOVQ x+8(FP), DI
	MOVQ dim+16(FP), CX
	MOVQ n+24(FP), BX
	MOVQ out+32(FP), R8
	LEAQ (CX*4), R9    // row stride in bytes
	MOVQ CX, R11
	SHRQ $4, R11       // full 16-element chunks
	ANDQ $15, CX       // tail length
	JZ   rows4
	AVX2MASKS

rows4:
	CMPQ BX, $4
	JLT  rows1
	LEAQ (DI)(R9*1), R12
	LEAQ (DI)(R9*2), R13
	LEAQ (R12)(R9*2), R14
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	XORQ AX, AX
	MOVQ R11, DX
	TESTQ DX, DX
	JZ   tail4

loop4:
	VMOVUPS (SI)(AX*1), Y8
	VMOVUPS 32(SI)(AX*1), Y9
	VFMADD231PS (DI)(AX*1), Y8, Y0
	VFMADD231PS 32(DI)(AX*1), Y9, Y1
	VFMADD231PS (R12)(AX*1), Y8, Y2
	VFMADD231PS 32(R12)(AX*1), Y9, Y3
	VFMADD231PS (R13)(AX*1), Y8, Y4
	VFMADD231PS 32(R13)(AX*1), Y9, Y5
	VFMADD231PS (R14)(AX*1), Y8, Y6
	VFMADD231PS 32(R14)(AX*1), Y9, Y7
	ADDQ $64, AX
	DECQ DX
	JNZ  loop4

tail4:
	TESTQ CX, CX
	JZ    sum4
	VMASKMOVPS (SI)(AX*1), Y10, Y8
	VMASKMOVPS 32(SI)(AX*1), Y11, Y9
	VMASKMOVPS (DI)(AX*1), Y10, Y12
	VMASKMOVPS 32(DI)(AX*1), Y11, Y13
	VFMADD231PS Y12, Y8, Y0
	VFMADD231PS Y13, Y9, Y1
	VMASKMOVPS (R12)(AX*1), Y10, Y12
	VMASKMOVPS 32(R12)(AX*1), Y11, Y13
	VFMADD231PS Y12, Y8, Y2
	VFMADD231PS Y13, Y9, Y3
	VMASKMOVPS (R13)(AX*1), Y10, Y12
	VMASKMOVPS 32(R13)(AX*1), Y11, Y13
	VFMADD231PS Y12, Y8, Y4
	VFMADD231PS Y13, Y9, Y5
	VMASKMOVPS (R14)(AX*1), Y10, Y12
	VMASKMOVPS 32(R14)(AX*1), Y11, Y13
	VFMADD231PS Y12, Y8, Y6
	VFMADD231PS Y13, Y9, Y7

sum4:
	HSUM256(Y0, X0, Y1, X12)
	HSUM256(Y2, X2, Y3, X12)
	HSUM256(Y4, X4, Y5, X12)
	HSUM256(Y6, X6, Y7, X12)
	VMOVSS X0, 0(R8)
	VMOVSS X2, 4(R8)
	VMOVSS X4, 8(R8)
	VMOVSS X6, 12(R8)
	ADDQ $16, R8
	LEAQ (DI)(R9*4), DI
	SUBQ $4, BX
	JMP  rows4

rows1:
	TESTQ  BX, BX
	JZ     done
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	XORQ   AX, AX
	MOVQ   R11, DX
	TESTQ  DX, DX
	JZ     tail1

loop1:
	VMOVUPS     (SI)(AX*1), Y8
	VMOVUPS     32(SI)(AX*1), Y9
	VFMADD231PS (DI)(AX*1), Y8, Y0
	VFMADD231PS 32(DI)(AX*1), Y9, Y1
	ADDQ        $64, AX
	DECQ        DX
	JNZ         loop1

tail1:
	TESTQ       CX, CX
	JZ          sum1
	VMASKMOVPS  (SI)(AX*1), Y10, Y8
	VMASKMOVPS  32(SI)(AX*1), Y11, Y9
	VMASKMOVPS  (DI)(AX*1), Y10, Y12
	VMASKMOVPS  32(DI)(AX*1), Y11, Y13
	VFMADD231PS Y12, Y8, Y0
	VFMADD231PS Y13, Y9, Y1

sum1:
	HSUM256(Y0, X0, Y1, X12)
	VMOVSS X0, (R8)
	ADDQ   $4, R8
	ADDQ   R9, DI
	DECQ   BX
	JMP    rows1

done:
	VZEROUPPER
	RET

// func dotRowsAVX512(q, x *float32, dim, n int, out *float32)
//
// Four rows at a time share each load of the query.
TEXT ·dotRowsAVX512(SB), NOSPLIT, $0-40
	MOVQ  q+0(FP), SI
	MOVQ  x+8(FP), DI
	MOVQ  dim+16(FP), CX
	MOVQ  n+24(FP), BX
	MOVQ  out+32(FP), R8
	LEAQ  (CX*4), R9   // row stride in bytes
	MOVQ  CX, R11
	SHRQ  $4, R11      // full 16-element chunks
	ANDQ  $15, CX      // tail length
	MOVL  $1, DX
	SHLL  CX, DX
	DECL  DX
	KMOVW DX, K1       // tail mask, zero without a tail

rows4:
	CMPQ BX, $4
	JLT  rows1
	LEAQ (DI)(R9*1), R12
	LEAQ (DI)(R9*2), R13
	LEAQ (R12)(R9*2), R14
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3
	XORQ  AX, AX
	MOVQ  R11, DX
	TESTQ DX, DX
	JZ    tail4

loop4:
	VMOVUPS (SI)(AX*1), Z4
	VFMADD231PS (DI)(AX*1), Z4, Z0
	VFMADD231PS (R12)(AX*1), Z4, Z1
	VFMADD231PS (R13)(AX*1), Z4, Z2
	VFMADD231PS (R14)(AX*1), Z4, Z3
	ADDQ $64, AX
	DECQ DX
	JNZ  loop4

tail4:
	KORTESTW K1, K1
	JZ       sum4
	VMOVUPS.Z (SI)(AX*1), K1, Z4
	VMOVUPS.Z (DI)(AX*1), K1, Z5
	VMOVUPS.Z (R12)(AX*1), K1, Z6
	VMOVUPS.Z (R13)(AX*1), K1, Z7
	VMOVUPS.Z (R14)(AX*1), K1, Z8
	VFMADD231PS Z5, Z4, Z0
	VFMADD231PS Z6, Z4, Z1
	VFMADD231PS Z7, Z4, Z2
	VFMADD231PS Z8, Z4, Z3

sum4:
	HSUM512(Z0, Y0, X0, Y8, X8)
	HSUM512(Z1, Y1, X1, Y8, X8)
	HSUM512(Z2, Y2, X2, Y8, X8)
	HSUM512(Z3, Y3, X3, Y8, X8)
	VMOVSS X0, 0(R8)
	VMOVSS X1, 4(R8)
	VMOVSS X2, 8(R8)
	VMOVSS X3, 12(R8)
	ADDQ $16, R8
	LEAQ (DI)(R9*4), DI
	SUBQ $4, BX
	JMP  rows4

rows1:
	TESTQ  BX, BX
	JZ     done
	VPXORD Z0, Z0, Z0
	XORQ   AX, AX
	MOVQ   R11, DX
	TESTQ  DX, DX
	JZ     tail1

loop1:
	VMOVUPS     (SI)(AX*1), Z4
	VFMADD231PS (DI)(AX*1), Z4, Z0
	ADDQ        $64, AX
	DECQ        DX
	JNZ         loop1

tail1:
	KORTESTW    K1, K1
	JZ          sum1
	VMOVUPS.Z   (SI)(AX*1), K1, Z4
	VMOVUPS.Z   (DI)(AX*1), K1, Z5
	VFMADD231PS Z5, Z4, Z0

sum1:
	HSUM512(Z0, Y0, X0, Y8, X8)
	VMOVSS X0, (R8)
	ADDQ   $4, R8
	ADDQ   R9, DI
	DECQ   BX
	JMP    rows1

done:
	VZEROUPPER
	RET

// func dotQuadAVX2(quad, x *float32, dim, nr int, out *float32, ldo int)
//
// Four packed queries against one row at a time: each row chunk is loaded
// once into Y8/Y9 and serves all four queries, whose chunks come from the
// packed quad (in L1) as memory operands. Eight accumulators, Y0-Y7.
TEXT ·dotQuadAVX2(SB), NOSPLIT, $0-48
	MOVQ quad+0(FP), SI
	MOVQ x+8(FP), DI
	MOVQ dim+16(FP), CX
	MOVQ nr+24(FP), BX
	MOVQ out+32(FP), R8
	MOVQ ldo+40(FP), R9
	SHLQ $2, R9          // output row stride in bytes
	LEAQ (R9)(R9*2), R12 // three output rows
	LEAQ (CX*4), R13     // row stride in bytes
	MOVQ CX, R11
	SHRQ $4, R11         // full 16-element chunks
	ANDQ $15, CX         // tail length
	JZ   rows
	AVX2MASKS

rows:
	TESTQ BX, BX
	JZ    done
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	XORQ  AX, AX
	MOVQ  R11, DX
	TESTQ DX, DX
	JZ    tail

loop:
	VMOVUPS (DI)(AX*1), Y8
	VMOVUPS 32(DI)(AX*1), Y9
	VFMADD231PS 0(SI)(AX*4), Y8, Y0
	VFMADD231PS 32(SI)(AX*4), Y9, Y1
	VFMADD231PS 64(SI)(AX*4), Y8, Y2
	VFMADD231PS 96(SI)(AX*4), Y9, Y3
	VFMADD231PS 128(SI)(AX*4), Y8, Y4
	VFMADD231PS 160(SI)(AX*4), Y9, Y5
	VFMADD231PS 192(SI)(AX*4), Y8, Y6
	VFMADD231PS 224(SI)(AX*4), Y9, Y7
	ADDQ $64, AX
	DECQ DX
	JNZ  loop

tail:
	TESTQ      CX, CX
	JZ         sum
	VMASKMOVPS (DI)(AX*1), Y10, Y8
	VMASKMOVPS 32(DI)(AX*1), Y11, Y9
	VFMADD231PS 0(SI)(AX*4), Y8, Y0
	VFMADD231PS 32(SI)(AX*4), Y9, Y1
	VFMADD231PS 64(SI)(AX*4), Y8, Y2
	VFMADD231PS 96(SI)(AX*4), Y9, Y3
	VFMADD231PS 128(SI)(AX*4), Y8, Y4
	VFMADD231PS 160(SI)(AX*4), Y9, Y5
	VFMADD231PS 192(SI)(AX*4), Y8, Y6
	VFMADD231PS 224(SI)(AX*4), Y9, Y7

sum:
	HSUM256(Y0, X0, Y1, X12)
	HSUM256(Y2, X2, Y3, X12)
	HSUM256(Y4, X4, Y5, X12)
	HSUM256(Y6, X6, Y7, X12)
	VMOVSS X0, (R8)
	VMOVSS X2, (R8)(R9*1)
	VMOVSS X4, (R8)(R9*2)
	VMOVSS X6, (R8)(R12*1)
	ADDQ   $4, R8
	ADDQ   R13, DI
	DECQ   BX
	JMP    rows

done:
	VZEROUPPER
	RET

// HSUM4x512 sums the lanes of A, B, C and D, by the tree of HSUM512 for
// each, and leaves the four sums in lanes 0, 4, 8 and 12 of A. The four
// trees run side by side: the 256-bit halves of A and B are lined up and
// added in one instruction, then the 128-bit quarters of all four, then
// elements 0+2 and 1+3, then 0+1. TA-TD are temporaries; B-D are
// clobbered.
#define HSUM4x512(A, B, C, D, TA, TB, TC, TD) \
	VSHUFF64X2 $0x44, B, A, TA \
	VSHUFF64X2 $0xee, B, A, TB \
	VADDPS     TB, TA, A       \
	VSHUFF64X2 $0x44, D, C, TC \
	VSHUFF64X2 $0xee, D, C, TD \
	VADDPS     TD, TC, C       \
	VSHUFF32X4 $0x88, C, A, TA \
	VSHUFF32X4 $0xdd, C, A, TB \
	VADDPS     TB, TA, A       \
	VPERMILPS  $0x4e, A, TA    \
	VADDPS     TA, A, A        \
	VMOVSHDUP  A, TA           \
	VADDPS     TA, A, A

// lanes0_4_8_12<> is the VPERMPS index that gathers lanes 0, 4, 8 and 12.
DATA lanes0_4_8_12<>+0(SB)/4, $0
DATA lanes0_4_8_12<>+4(SB)/4, $4
DATA lanes0_4_8_12<>+8(SB)/4, $8
DATA lanes0_4_8_12<>+12(SB)/4, $12
GLOBL lanes0_4_8_12<>(SB), RODATA|NOPTR, $16

// func dotQuadAVX512(quad, x *float32, dim, nr int, out *float32, ldo int)
//
// A 4-query x 6-row register tile: per 16-element step, four query chunks
// (Z24-Z27) and six row chunks are loaded once and feed 24 accumulators
// (Z0-Z23: 4j+t for query j and rows t = 0-3, 16+2j+(t-4) for rows 4-5).
// Sums are reduced four at a time (HSUM4x512): each query's rows 0-3 give
// four consecutive scores, and rows 4-5 of queries 0-1 and 2-3 give two
// pairs. Rows left over after the tiles go one at a time against the four
// queries.
TEXT ·dotQuadAVX512(SB), NOSPLIT, $0-48
	MOVQ    quad+0(FP), SI
	MOVQ    x+8(FP), DI
	MOVQ    dim+16(FP), CX
	MOVQ    out+32(FP), R8
	MOVQ    ldo+40(FP), R9
	SHLQ    $2, R9       // output row stride in bytes
	LEAQ    (CX*4), R10  // row stride in bytes
	MOVQ    CX, R11
	SHRQ    $4, R11      // full 16-element chunks
	ANDQ    $15, CX      // tail length
	MOVL    $1, DX
	SHLL    CX, DX
	DECL    DX
	KMOVW   DX, K1       // tail mask, zero without a tail
	LEAQ    (R9)(R9*2), CX // three output rows
	VMOVDQU32 lanes0_4_8_12<>(SB), X31 // VPERMPS index for HSUM4x512

	// The rows left are counted in the nr argument slot: all the general
	// registers are taken by the tile.
rows6:
	CMPQ nr+24(FP), $6
	JLT  rest
	LEAQ (DI)(R10*1), R12
	LEAQ (DI)(R10*2), R13
	LEAQ (R12)(R10*2), R14
	LEAQ (DI)(R10*4), R15
	LEAQ (R12)(R10*4), BX
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3
	VPXORD Z4, Z4, Z4
	VPXORD Z5, Z5, Z5
	VPXORD Z6, Z6, Z6
	VPXORD Z7, Z7, Z7
	VPXORD Z8, Z8, Z8
	VPXORD Z9, Z9, Z9
	VPXORD Z10, Z10, Z10
	VPXORD Z11, Z11, Z11
	VPXORD Z12, Z12, Z12
	VPXORD Z13, Z13, Z13
	VPXORD Z14, Z14, Z14
	VPXORD Z15, Z15, Z15
	VPXORD Z16, Z16, Z16
	VPXORD Z17, Z17, Z17
	VPXORD Z18, Z18, Z18
	VPXORD Z19, Z19, Z19
	VPXORD Z20, Z20, Z20
	VPXORD Z21, Z21, Z21
	VPXORD Z22, Z22, Z22
	VPXORD Z23, Z23, Z23
	XORQ  AX, AX
	MOVQ  R11, DX
	TESTQ DX, DX
	JZ    tail6

loop6:
	VMOVUPS 0(SI)(AX*4), Z24
	VMOVUPS 64(SI)(AX*4), Z25
	VMOVUPS 128(SI)(AX*4), Z26
	VMOVUPS 192(SI)(AX*4), Z27
	VMOVUPS (DI)(AX*1), Z28
	VFMADD231PS Z28, Z24, Z0
	VFMADD231PS Z28, Z25, Z4
	VFMADD231PS Z28, Z26, Z8
	VFMADD231PS Z28, Z27, Z12
	VMOVUPS (R12)(AX*1), Z29
	VFMADD231PS Z29, Z24, Z1
	VFMADD231PS Z29, Z25, Z5
	VFMADD231PS Z29, Z26, Z9
	VFMADD231PS Z29, Z27, Z13
	VMOVUPS (R13)(AX*1), Z28
	VFMADD231PS Z28, Z24, Z2
	VFMADD231PS Z28, Z25, Z6
	VFMADD231PS Z28, Z26, Z10
	VFMADD231PS Z28, Z27, Z14
	VMOVUPS (R14)(AX*1), Z29
	VFMADD231PS Z29, Z24, Z3
	VFMADD231PS Z29, Z25, Z7
	VFMADD231PS Z29, Z26, Z11
	VFMADD231PS Z29, Z27, Z15
	VMOVUPS (R15)(AX*1), Z28
	VFMADD231PS Z28, Z24, Z16
	VFMADD231PS Z28, Z25, Z18
	VFMADD231PS Z28, Z26, Z20
	VFMADD231PS Z28, Z27, Z22
	VMOVUPS (BX)(AX*1), Z29
	VFMADD231PS Z29, Z24, Z17
	VFMADD231PS Z29, Z25, Z19
	VFMADD231PS Z29, Z26, Z21
	VFMADD231PS Z29, Z27, Z23
	ADDQ $64, AX
	DECQ DX
	JNZ  loop6

tail6:
	KORTESTW K1, K1
	JZ       sum6
	VMOVUPS 0(SI)(AX*4), Z24
	VMOVUPS 64(SI)(AX*4), Z25
	VMOVUPS 128(SI)(AX*4), Z26
	VMOVUPS 192(SI)(AX*4), Z27
	VMOVUPS.Z (DI)(AX*1), K1, Z28
	VFMADD231PS Z28, Z24, Z0
	VFMADD231PS Z28, Z25, Z4
	VFMADD231PS Z28, Z26, Z8
	VFMADD231PS Z28, Z27, Z12
	VMOVUPS.Z (R12)(AX*1), K1, Z29
	VFMADD231PS Z29, Z24, Z1
	VFMADD231PS Z29, Z25, Z5
	VFMADD231PS Z29, Z26, Z9
	VFMADD231PS Z29, Z27, Z13
	VMOVUPS.Z (R13)(AX*1), K1, Z28
	VFMADD231PS Z28, Z24, Z2
	VFMADD231PS Z28, Z25, Z6
	VFMADD231PS Z28, Z26, Z10
	VFMADD231PS Z28, Z27, Z14
	VMOVUPS.Z (R14)(AX*1), K1, Z29
	VFMADD231PS Z29, Z24, Z3
	VFMADD231PS Z29, Z25, Z7
	VFMADD231PS Z29, Z26, Z11
	VFMADD231PS Z29, Z27, Z15
	VMOVUPS.Z (R15)(AX*1), K1, Z28
	VFMADD231PS Z28, Z24, Z16
	VFMADD231PS Z28, Z25, Z18
	VFMADD231PS Z28, Z26, Z20
	VFMADD231PS Z28, Z27, Z22
	VMOVUPS.Z (BX)(AX*1), K1, Z29
	VFMADD231PS Z29, Z24, Z17
	VFMADD231PS Z29, Z25, Z19
	VFMADD231PS Z29, Z26, Z21
	VFMADD231PS Z29, Z27, Z23

sum6:
	HSUM4x512(Z0, Z1, Z2, Z3, Z24, Z25, Z26, Z27)
	VPERMPS Z0, Z31, Z0
	VMOVUPS X0, 0(R8)
	HSUM4x512(Z4, Z5, Z6, Z7, Z24, Z25, Z26, Z27)
	VPERMPS Z4, Z31, Z4
	VMOVUPS X4, 0(R8)(R9*1)
	HSUM4x512(Z8, Z9, Z10, Z11, Z24, Z25, Z26, Z27)
	VPERMPS Z8, Z31, Z8
	VMOVUPS X8, 0(R8)(R9*2)
	HSUM4x512(Z12, Z13, Z14, Z15, Z24, Z25, Z26, Z27)
	VPERMPS Z12, Z31, Z12
	VMOVUPS X12, 0(R8)(CX*1)
	HSUM4x512(Z16, Z17, Z18, Z19, Z24, Z25, Z26, Z27)
	VPERMPS Z16, Z31, Z16
	VMOVQ X16, 16(R8)
	VMOVHPS X16, 16(R8)(R9*1)
	HSUM4x512(Z20, Z21, Z22, Z23, Z24, Z25, Z26, Z27)
	VPERMPS Z20, Z31, Z20
	VMOVQ X20, 16(R8)(R9*2)
	VMOVHPS X20, 16(R8)(CX*1)
	ADDQ $24, R8
	LEAQ (BX)(R10*1), DI
	SUBQ $6, nr+24(FP)
	JMP  rows6

rest:
	MOVQ nr+24(FP), BX

rows1:
	TESTQ BX, BX
	JZ    done
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3
	XORQ  AX, AX
	MOVQ  R11, DX
	TESTQ DX, DX
	JZ    tail1

loop1:
	VMOVUPS (DI)(AX*1), Z28
	VFMADD231PS 0(SI)(AX*4), Z28, Z0
	VFMADD231PS 64(SI)(AX*4), Z28, Z1
	VFMADD231PS 128(SI)(AX*4), Z28, Z2
	VFMADD231PS 192(SI)(AX*4), Z28, Z3
	ADDQ $64, AX
	DECQ DX
	JNZ  loop1

tail1:
	KORTESTW  K1, K1
	JZ        sum1
	VMOVUPS.Z (DI)(AX*1), K1, Z28
	VFMADD231PS 0(SI)(AX*4), Z28, Z0
	VFMADD231PS 64(SI)(AX*4), Z28, Z1
	VFMADD231PS 128(SI)(AX*4), Z28, Z2
	VFMADD231PS 192(SI)(AX*4), Z28, Z3

sum1:
	HSUM4x512(Z0, Z1, Z2, Z3, Z24, Z25, Z26, Z27)
	VPERMPS Z0, Z31, Z0
	VMOVSS X0, (R8)
	VEXTRACTPS $1, X0, (R8)(R9*1)
	VEXTRACTPS $2, X0, (R8)(R9*2)
	VEXTRACTPS $3, X0, (R8)(CX*1)
	ADDQ $4, R8
	ADDQ R10, DI
	DECQ BX
	JMP  rows1

done:
	VZEROUPPER
	RET

// func firstGEAVX2(s *float32, n int, thr float32) int
//
// firstGEAVX2 returns the index of the first of the n (a multiple of 16)
// scores at s that is >= thr, or n if there is none.
TEXT ·firstGEAVX2(SB), NOSPLIT, $0-32
	MOVQ         s+0(FP), SI
	MOVQ         n+8(FP), CX
	VBROADCASTSS thr+16(FP), Y0
	XORQ         AX, AX

loop:
	CMPQ      AX, CX
	JGE       none
	VCMPPS    $0x12, (SI)(AX*4), Y0, Y1
	VCMPPS    $0x12, 32(SI)(AX*4), Y0, Y2
	VMOVMSKPS Y1, DX
	VMOVMSKPS Y2, BX
	SHLL      $8, BX
	ORL       BX, DX
	JNZ       found
	ADDQ      $16, AX
	JMP       loop

found:
	TZCNTL DX, DX
	ADDQ   DX, AX

none:
	VZEROUPPER
	MOVQ AX, ret+24(FP)
	RET

// func firstGEAVX512(s *float32, n int, thr float32) int
//
// firstGEAVX512 is firstGEAVX2 with 512-bit compares into a mask register.
TEXT ·firstGEAVX512(SB), NOSPLIT, $0-32
	MOVQ         s+0(FP), SI
	MOVQ         n+8(FP), CX
	VBROADCASTSS thr+16(FP), Z0
	XORQ         AX, AX

loop:
	CMPQ     AX, CX
	JGE      none
	VCMPPS   $0x12, (SI)(AX*4), Z0, K1
	KORTESTW K1, K1
	JNZ      found
	ADDQ     $16, AX
	JMP      loop

found:
	KMOVW  K1, DX
	TZCNTL DX, DX
	ADDQ   DX, AX

none:
	VZEROUPPER
	MOVQ AX, ret+24(FP)
	RET

// Int8 kernels for FlatInt8. Codes are signed bytes in [-127, 127], rows
// are padded with zeros to a multiple of 64 bytes, and the integer inner
// products are exact, so every kernel gives the same result; it is then
// converted to float32 and multiplied by the row's scale, then by the
// query's.

// HSUMI512 sums the sixteen int32 lanes of Z into the low lane of X.
#define HSUMI512(Z, Y, X, TY, TX) \
	VEXTRACTI64X4 $1, Z, TY \
	VPADDD        TY, Y, Y  \
	VEXTRACTI128  $1, Y, TX \
	VPADDD        TX, X, X  \
	VPSHUFD       $0x4e, X, TX \
	VPADDD        TX, X, X  \
	VPSHUFD       $0xb1, X, TX \
	VPADDD        TX, X, X

// HSUMI256 sums the eight int32 lanes of Y into the low lane of X.
#define HSUMI256(Y, X, TX) \
	VEXTRACTI128 $1, Y, TX \
	VPADDD       TX, X, X  \
	VPSHUFD      $0x4e, X, TX \
	VPADDD       TX, X, X  \
	VPSHUFD      $0xb1, X, TX \
	VPADDD       TX, X, X

// func dotInt8FlatVNNI(qu *uint8, codes *int8, stride, n int, scale *float32, csum *int32, out *float32, qscale float32)
//
// qu is the query's codes plus 128 (unsigned bytes). VPDPBUSD multiplies
// them with the row's signed codes and adds groups of four products into
// int32 lanes, so a row's sum is q·x + 128·Σx; the row's code sum csum
// takes the 128·Σx back out. Four rows share each query load.
TEXT ·dotInt8FlatVNNI(SB), NOSPLIT, $0-60
	VBROADCASTSS qscale+56(FP), X7
	MOVQ qu+0(FP), SI
	MOVQ codes+8(FP), DI
	MOVQ stride+16(FP), R9
	MOVQ n+24(FP), BX
	MOVQ scale+32(FP), R10
	MOVQ csum+40(FP), R11
	MOVQ out+48(FP), R8
	MOVQ R9, CX
	SHRQ $6, CX        // 64-byte chunks per row

rows4:
	CMPQ BX, $4
	JLT  rows1
	LEAQ (DI)(R9*1), R12
	LEAQ (DI)(R9*2), R13
	LEAQ (R12)(R9*2), R14
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3
	XORQ AX, AX
	MOVQ CX, DX

loop4:
	VMOVDQU8 (SI)(AX*1), Z4
	VPDPBUSD (DI)(AX*1), Z4, Z0
	VPDPBUSD (R12)(AX*1), Z4, Z1
	VPDPBUSD (R13)(AX*1), Z4, Z2
	VPDPBUSD (R14)(AX*1), Z4, Z3
	ADDQ $64, AX
	DECQ DX
	JNZ  loop4
	HSUMI512(Z0, Y0, X0, Y8, X8)
	HSUMI512(Z1, Y1, X1, Y8, X8)
	HSUMI512(Z2, Y2, X2, Y8, X8)
	HSUMI512(Z3, Y3, X3, Y8, X8)
	VPUNPCKLDQ  X1, X0, X0
	VPUNPCKLDQ  X3, X2, X2
	VPUNPCKLQDQ X2, X0, X0
	VMOVDQU     (R11), X6
	VPSLLD      $7, X6, X6
	VPSUBD      X6, X0, X0
	VCVTDQ2PS   X0, X0
	VMULPS      (R10), X0, X0
	VMULPS      X7, X0, X0
	VMOVUPS     X0, (R8)
	ADDQ        $16, R8
	ADDQ        $16, R10
	ADDQ        $16, R11
	LEAQ        (DI)(R9*4), DI
	SUBQ        $4, BX
	JMP         rows4

rows1:
	TESTQ  BX, BX
	JZ     done
	VPXORD Z0, Z0, Z0
	XORQ   AX, AX
	MOVQ   CX, DX

loop1:
	VMOVDQU8 (SI)(AX*1), Z4
	VPDPBUSD (DI)(AX*1), Z4, Z0
	ADDQ     $64, AX
	DECQ     DX
	JNZ      loop1
	HSUMI512(Z0, Y0, X0, Y8, X8)
	VMOVD     (R11), X6
	VPSLLD    $7, X6, X6
	VPSUBD    X6, X0, X0
	VCVTDQ2PS X0, X0
	VMULSS    (R10), X0, X0
	VMULSS    X7, X0, X0
	VMOVSS    X0, (R8)
	ADDQ      $4, R8
	ADDQ      $4, R10
	ADDQ      $4, R11
	ADDQ      R9, DI
	DECQ      BX
	JMP       rows1

done:
	VZEROUPPER
	RET

// func dotInt8FlatAVX2(qs *int8, codes *int8, stride, n int, scale *float32, out *float32, qscale float32)
//
// Without VNNI: VPMADDUBSW multiplies unsigned by signed bytes, so the
// query's sign moves onto the row (VPSIGNB) and its magnitude (VPABSB)
// is the unsigned operand. Products are at most 127·127, and a pair of
// them fits an int16 without saturating; VPMADDWD by ones widens the
// pairs to int32.
TEXT ·dotInt8FlatAVX2(SB), NOSPLIT, $0-52
	VBROADCASTSS qscale+48(FP), X7
	MOVQ     qs+0(FP), SI
	MOVQ     codes+8(FP), DI
	MOVQ     stride+16(FP), R9
	MOVQ     n+24(FP), BX
	MOVQ     scale+32(FP), R10
	MOVQ     out+40(FP), R8
	MOVQ     R9, CX
	SHRQ     $5, CX          // 32-byte chunks per row
	VPCMPEQW Y15, Y15, Y15
	VPSRLW   $15, Y15, Y15   // int16 ones

rows4:
	CMPQ BX, $4
	JLT  rows1
	LEAQ (DI)(R9*1), R12
	LEAQ (DI)(R9*2), R13
	LEAQ (R12)(R9*2), R14
	VPXOR Y0, Y0, Y0
	VPXOR Y1, Y1, Y1
	VPXOR Y2, Y2, Y2
	VPXOR Y3, Y3, Y3
	XORQ AX, AX
	MOVQ CX, DX

loop4:
	VMOVDQU (SI)(AX*1), Y4
	VPABSB  Y4, Y5
	VMOVDQU (DI)(AX*1), Y6
	VPSIGNB Y4, Y6, Y6
	VPMADDUBSW Y6, Y5, Y6
	VPMADDWD Y15, Y6, Y6
	VPADDD Y6, Y0, Y0
	VMOVDQU (R12)(AX*1), Y6
	VPSIGNB Y4, Y6, Y6
	VPMADDUBSW Y6, Y5, Y6
	VPMADDWD Y15, Y6, Y6
	VPADDD Y6, Y1, Y1
	VMOVDQU (R13)(AX*1), Y6
	VPSIGNB Y4, Y6, Y6
	VPMADDUBSW Y6, Y5, Y6
	VPMADDWD Y15, Y6, Y6
	VPADDD Y6, Y2, Y2
	VMOVDQU (R14)(AX*1), Y6
	VPSIGNB Y4, Y6, Y6
	VPMADDUBSW Y6, Y5, Y6
	VPMADDWD Y15, Y6, Y6
	VPADDD Y6, Y3, Y3
	ADDQ $32, AX
	DECQ DX
	JNZ  loop4
	HSUMI256(Y0, X0, X8)
	HSUMI256(Y1, X1, X8)
	HSUMI256(Y2, X2, X8)
	HSUMI256(Y3, X3, X8)
	VPUNPCKLDQ  X1, X0, X0
	VPUNPCKLDQ  X3, X2, X2
	VPUNPCKLQDQ X2, X0, X0
	VCVTDQ2PS   X0, X0
	VMULPS      (R10), X0, X0
	VMULPS      X7, X0, X0
	VMOVUPS     X0, (R8)
	ADDQ        $16, R8
	ADDQ        $16, R10
	LEAQ        (DI)(R9*4), DI
	SUBQ        $4, BX
	JMP         rows4

rows1:
	TESTQ BX, BX
	JZ    done
	VPXOR Y0, Y0, Y0
	XORQ  AX, AX
	MOVQ  CX, DX

loop1:
	VMOVDQU    (SI)(AX*1), Y4
	VPABSB     Y4, Y5
	VMOVDQU    (DI)(AX*1), Y6
	VPSIGNB    Y4, Y6, Y6
	VPMADDUBSW Y6, Y5, Y6
	VPMADDWD   Y15, Y6, Y6
	VPADDD     Y6, Y0, Y0
	ADDQ       $32, AX
	DECQ       DX
	JNZ        loop1
	HSUMI256(Y0, X0, X8)
	VCVTDQ2PS X0, X0
	VMULSS    (R10), X0, X0
	VMULSS    X7, X0, X0
	VMOVSS    X0, (R8)
	ADDQ      $4, R8
	ADDQ      $4, R10
	ADDQ      R9, DI
	DECQ      BX
	JMP       rows1

done:
	VZEROUPPER
	RET

// func prefetchL2(p *float32, n int)
//
// prefetchL2 asks for the n floats at p (rounded out to cache lines) to be
// brought into L2, so that a batch's next block of rows is there when the
// kernels reach it.
TEXT ·prefetchL2(SB), NOSPLIT, $0-16
	MOVQ p+0(FP), SI
	MOVQ n+8(FP), CX
	LEAQ (SI)(CX*4), CX

loop:
	CMPQ        SI, CX
	JGE         done
	PREFETCHT1  (SI)
	ADDQ        $64, SI
	JMP         loop

done:
	RET
