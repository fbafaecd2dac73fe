//go:build amd64 && !purego

#include "textflag.h"

// The codes are in blocks of 8 rows (signLanes): word 0 of the block's
// rows side by side, then word 1, and so on; planes holds the query's
// four planes interleaved, word i's at planes[4i..4i+3]. For each row,
// out gets Σ_j 2^j popcount(row & plane j) over the row's words.

// func signDotsPOPCNT(codes *uint64, planes *uint64, words, blocks int, out *int32)
//
// One row at a time with scalar POPCNT: word i of a block's lane l is at
// 64i + 8l bytes from the block.
TEXT ·signDotsPOPCNT(SB), NOSPLIT, $0-40
	MOVQ codes+0(FP), SI
	MOVQ planes+8(FP), R14
	MOVQ words+16(FP), CX
	MOVQ blocks+24(FP), DX
	MOVQ out+32(FP), R8
	TESTQ DX, DX
	JLE  done
	TESTQ CX, CX
	JLE  done
	SHLQ $3, CX // CX = 8·words, the end of R13

block:
	MOVQ SI, R15 // lane l's word 0
	MOVQ $8, DI

lane:
	XORQ R9, R9
	XORQ R10, R10
	XORQ R11, R11
	XORQ R12, R12
	XORQ R13, R13 // 8·word

word:
	MOVQ    (R15)(R13*8), AX
	MOVQ    (R14)(R13*4), BX
	ANDQ    AX, BX
	POPCNTQ BX, BX
	ADDQ    BX, R9
	MOVQ    8(R14)(R13*4), BX
	ANDQ    AX, BX
	POPCNTQ BX, BX
	ADDQ    BX, R10
	MOVQ    16(R14)(R13*4), BX
	ANDQ    AX, BX
	POPCNTQ BX, BX
	ADDQ    BX, R11
	MOVQ    24(R14)(R13*4), BX
	ANDQ    AX, BX
	POPCNTQ BX, BX
	ADDQ    BX, R12
	ADDQ    $8, R13
	CMPQ    R13, CX
	JLT     word

	LEAQ (R9)(R10*2), R9
	LEAQ (R9)(R11*4), R9
	LEAQ (R9)(R12*8), R9
	MOVL R9, (R8)
	ADDQ $4, R8
	ADDQ $8, R15
	DECQ DI
	JNZ  lane

	LEAQ (SI)(CX*8), SI // the next block, 64·words bytes on
	DECQ DX
	JNZ  block

done:
	RET

// PLANE adds to acc the per-lane popcounts of Z4 (a word of 8 rows) AND
// the plane word at off(DI) broadcast, through t.
#define PLANE(off, t, acc) VPANDQ.BCST off(DI), Z4, t; VPOPCNTQ t, t; VPADDQ t, acc, acc

// func signEstimateVPOPCNT(codes *uint64, planes *uint64, words, blocks int, pop *uint16, factor *float32, c *signConsts, out *float32, masks *uint8)
//
// A block's 8 rows at once with AVX-512 VPOPCNTDQ: each load is one word
// of the 8 rows, ANDed with that word of each plane broadcast, counted
// per lane and summed per plane; the planes' sums are weighted at the
// block's end, so no row's count is summed across lanes. The counts are
// turned into estimates in float32: est = qc + factor·(lo2·pop +
// step2·count - sum), stored to out, with bit l of the block's mask byte
// set when row l's est >= thr. c is {lo2, step2, sum, qc, thr}.
TEXT ·signEstimateVPOPCNT(SB), NOSPLIT, $0-72
	MOVQ codes+0(FP), SI
	MOVQ planes+8(FP), R14
	MOVQ words+16(FP), CX
	MOVQ blocks+24(FP), DX
	MOVQ pop+32(FP), R9
	MOVQ factor+40(FP), R10
	MOVQ c+48(FP), R12
	MOVQ out+56(FP), R8
	MOVQ masks+64(FP), R11
	TESTQ DX, DX
	JLE  edone
	TESTQ CX, CX
	JLE  edone
	VBROADCASTSS 0(R12), Y10
	VBROADCASTSS 4(R12), Y11
	VBROADCASTSS 8(R12), Y12
	VBROADCASTSS 12(R12), Y13
	VBROADCASTSS 16(R12), Y14

eblock:
	VPXORQ Z0, Z0, Z0
	VPXORQ Z1, Z1, Z1
	VPXORQ Z2, Z2, Z2
	VPXORQ Z3, Z3, Z3
	MOVQ   R14, DI
	MOVQ   CX, R13

eword:
	VMOVDQU64     (SI), Z4
	PLANE(0, Z5, Z0)
	PLANE(8, Z6, Z1)
	PLANE(16, Z7, Z2)
	PLANE(24, Z8, Z3)
	ADDQ          $64, SI
	ADDQ          $32, DI
	DECQ          R13
	JNZ           eword

	VPSLLQ      $1, Z1, Z1
	VPSLLQ      $2, Z2, Z2
	VPSLLQ      $3, Z3, Z3
	VPADDQ      Z1, Z0, Z0
	VPADDQ      Z3, Z2, Z2
	VPADDQ      Z2, Z0, Z0
	VPMOVQD     Z0, Y9
	VCVTDQ2PS   Y9, Y9          // the counts
	VPMOVZXWD   (R9), Y15
	VCVTDQ2PS   Y15, Y15        // the rows' set bits
	VFMSUB213PS Y12, Y11, Y9    // step2·count - sum
	VFMADD231PS Y15, Y10, Y9    // + lo2·pop
	VMOVUPS     (R10), Y8
	VFMADD213PS Y13, Y8, Y9     // factor·that + qc
	VMOVUPS     Y9, (R8)
	VCMPPS      $0x1d, Y14, Y9, K1 // >= thr, ordered
	KMOVB       K1, AX
	MOVB        AX, (R11)
	ADDQ        $32, R8
	ADDQ        $16, R9
	ADDQ        $32, R10
	INCQ        R11
	DECQ        DX
	JNZ         eblock
	VZEROUPPER

edone:
	RET
