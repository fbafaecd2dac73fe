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

// func signDotsVPOPCNT(codes *uint64, planes *uint64, words, rows int, out *int32)
//
// signDotsPOPCNT for 1 <= words <= 8 with AVX-512 VPOPCNTDQ: a row's words
// in one register (a masked load, which reads nothing past the row), the
// planes plane-major, plane j at planes[8j:8j+8], zero past words.
TEXT ·signDotsVPOPCNT(SB), NOSPLIT, $0-40
	MOVQ codes+0(FP), SI
	MOVQ planes+8(FP), DI
	MOVQ words+16(FP), CX
	MOVQ rows+24(FP), DX
	MOVQ out+32(FP), R8
	TESTQ DX, DX
	JLE  vdone
	MOVQ $1, AX
	SHLQ CX, AX
	DECQ AX
	KMOVQ AX, K1
	VMOVDQU64 0(DI), Z4
	VMOVDQU64 64(DI), Z5
	VMOVDQU64 128(DI), Z6
	VMOVDQU64 192(DI), Z7
	MOVQ CX, R9
	SHLQ $3, R9

vrow:
	VMOVDQU64.Z (SI), K1, Z0
	VPANDQ      Z0, Z4, Z1
	VPOPCNTQ    Z1, Z1
	VPANDQ      Z0, Z5, Z2
	VPOPCNTQ    Z2, Z2
	VPSLLQ      $1, Z2, Z2
	VPADDQ      Z2, Z1, Z1
	VPANDQ      Z0, Z6, Z2
	VPOPCNTQ    Z2, Z2
	VPSLLQ      $2, Z2, Z2
	VPADDQ      Z2, Z1, Z1
	VPANDQ      Z0, Z7, Z2
	VPOPCNTQ    Z2, Z2
	VPSLLQ      $3, Z2, Z2
	VPADDQ      Z2, Z1, Z1
	VEXTRACTI64X4 $1, Z1, Y2
	VPADDQ      Y2, Y1, Y1
	VEXTRACTI128 $1, Y1, X2
	VPADDQ      X2, X1, X1
	VPSHUFD     $0x4e, X1, X2
	VPADDQ      X2, X1, X1
	VMOVD       X1, AX
	MOVL        AX, (R8)
	ADDQ        R9, SI
	ADDQ        $4, R8
	DECQ        DX
	JNZ         vrow
	VZEROUPPER

vdone:
	RET
