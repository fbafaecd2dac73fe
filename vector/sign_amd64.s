//go:build amd64 && !purego

#include "textflag.h"

// func signDotsPOPCNT(codes *uint64, planes *uint64, words, rows int, out *int32)
//
// For each of rows rows of words sign words (codes, row after row), out
// gets Σ_j 2^j popcount(row & plane j) over the row's words; planes holds
// the four planes interleaved, word i's at planes[4i..4i+3].
TEXT ·signDotsPOPCNT(SB), NOSPLIT, $0-40
	MOVQ codes+0(FP), SI
	MOVQ planes+8(FP), R14
	MOVQ words+16(FP), CX
	MOVQ rows+24(FP), DX
	MOVQ out+32(FP), R8
	TESTQ DX, DX
	JLE  done
	TESTQ CX, CX
	JLE  done

row:
	XORQ R9, R9
	XORQ R10, R10
	XORQ R11, R11
	XORQ R12, R12
	MOVQ CX, R13
	MOVQ R14, DI

word:
	MOVQ    (SI), AX
	MOVQ    0(DI), BX
	ANDQ    AX, BX
	POPCNTQ BX, BX
	ADDQ    BX, R9
	MOVQ    8(DI), BX
	ANDQ    AX, BX
	POPCNTQ BX, BX
	ADDQ    BX, R10
	MOVQ    16(DI), BX
	ANDQ    AX, BX
	POPCNTQ BX, BX
	ADDQ    BX, R11
	MOVQ    24(DI), BX
	ANDQ    AX, BX
	POPCNTQ BX, BX
	ADDQ    BX, R12
	ADDQ    $8, SI
	ADDQ    $32, DI
	DECQ    R13
	JNZ     word

	LEAQ (R9)(R10*2), R9
	LEAQ (R9)(R11*4), R9
	LEAQ (R9)(R12*8), R9
	MOVL R9, (R8)
	ADDQ $4, R8
	DECQ DX
	JNZ  row

done:
	RET
