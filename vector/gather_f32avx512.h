// gather_f32avx512.h: the body of dotNodesAVX512 and dotRowsOfAVX512 (gather_amd64.s),
// included after their TEXT lines, with NODEADDR defined to reach node
// blocks or rows.

	MOVQ  q+0(FP), SI
	MOVQ  base+8(FP), DI
	MOVQ  stride+16(FP), R9
	MOVQ  dim+24(FP), CX
	MOVQ  nodes+32(FP), BX
	MOVQ  n+40(FP), R10
	MOVQ  out+48(FP), R8
	MOVQ  CX, R11
	SHRQ  $4, R11   // full 16-element chunks
	ANDQ  $15, CX   // tail length
	MOVL  $1, DX
	SHLL  CX, DX
	DECL  DX
	KMOVW DX, K1    // tail mask, zero without a tail
	MOVQ  dim+24(FP), CX
	SHLQ  $2, CX    // vector bytes

	// The first lines, up to four, of every node.
	MOVQ CX, DX
	CMPQ DX, $256
	JLE  first
	MOVQ $256, DX

first:
	MOVQ BX, R12
	MOVQ R10, R13

firstnode:
	TESTQ R13, R13
	JZ    firstdone
	NODEADDR((R12), AX)
	LEAQ  (AX)(DX*1), R14
	ANDQ  $-64, AX

firstline:
	PREFETCHT0 (AX)
	ADDQ       $64, AX
	CMPQ       AX, R14
	JLT        firstline
	ADDQ       $4, R12
	DECQ       R13
	JMP        firstnode

firstdone:
	// The whole of the first group.
	MOVQ BX, R12
	MOVQ R10, R13
	CMPQ R13, $4
	JLE  pf0node
	MOVQ $4, R13

pf0node:
	TESTQ R13, R13
	JZ    group
	NODEADDR((R12), AX)
	LEAQ  (AX)(CX*1), DX
	ANDQ  $-64, AX

pf0line:
	PREFETCHT0 (AX)
	ADDQ       $64, AX
	CMPQ       AX, DX
	JLT        pf0line
	ADDQ       $4, R12
	DECQ       R13
	JMP        pf0node

group:
	CMPQ R10, $4
	JLT  single

	// The whole of the next group, nodes[4 : min(8, n)].
	LEAQ 16(BX), R12
	MOVQ R10, R13
	SUBQ $4, R13
	CMPQ R13, $4
	JLE  pfnode
	MOVQ $4, R13

pfnode:
	TESTQ R13, R13
	JZ    rows
	NODEADDR((R12), AX)
	LEAQ  (AX)(CX*1), DX
	ANDQ  $-64, AX

pfline:
	PREFETCHT0 (AX)
	ADDQ       $64, AX
	CMPQ       AX, DX
	JLT        pfline
	ADDQ       $4, R12
	DECQ       R13
	JMP        pfnode

rows:
	NODEADDR(0(BX), R12)
	NODEADDR(4(BX), R13)
	NODEADDR(8(BX), R14)
	NODEADDR(12(BX), R15)
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3
	XORQ   AX, AX
	MOVQ   R11, DX
	TESTQ  DX, DX
	JZ     tail4

loop4:
	VMOVUPS     (SI)(AX*1), Z4
	VFMADD231PS (R12)(AX*1), Z4, Z0
	VFMADD231PS (R13)(AX*1), Z4, Z1
	VFMADD231PS (R14)(AX*1), Z4, Z2
	VFMADD231PS (R15)(AX*1), Z4, Z3
	ADDQ        $64, AX
	DECQ        DX
	JNZ         loop4

tail4:
	KORTESTW    K1, K1
	JZ          sum4
	VMOVUPS.Z   (SI)(AX*1), K1, Z4
	VMOVUPS.Z   (R12)(AX*1), K1, Z5
	VMOVUPS.Z   (R13)(AX*1), K1, Z6
	VMOVUPS.Z   (R14)(AX*1), K1, Z7
	VMOVUPS.Z   (R15)(AX*1), K1, Z8
	VFMADD231PS Z5, Z4, Z0
	VFMADD231PS Z6, Z4, Z1
	VFMADD231PS Z7, Z4, Z2
	VFMADD231PS Z8, Z4, Z3

sum4:
	HSUM512G(Z0, Y0, X0, Y8, X8)
	HSUM512G(Z1, Y1, X1, Y8, X8)
	HSUM512G(Z2, Y2, X2, Y8, X8)
	HSUM512G(Z3, Y3, X3, Y8, X8)
	VMOVSS X0, 0(R8)
	VMOVSS X1, 4(R8)
	VMOVSS X2, 8(R8)
	VMOVSS X3, 12(R8)
	ADDQ   $16, R8
	ADDQ   $16, BX
	SUBQ   $4, R10
	JMP    group

single:
	TESTQ  R10, R10
	JZ     done
	NODEADDR((BX), R12)
	VPXORD Z0, Z0, Z0
	XORQ   AX, AX
	MOVQ   R11, DX
	TESTQ  DX, DX
	JZ     tail1

loop1:
	VMOVUPS     (SI)(AX*1), Z4
	VFMADD231PS (R12)(AX*1), Z4, Z0
	ADDQ        $64, AX
	DECQ        DX
	JNZ         loop1

tail1:
	KORTESTW    K1, K1
	JZ          sum1
	VMOVUPS.Z   (SI)(AX*1), K1, Z4
	VMOVUPS.Z   (R12)(AX*1), K1, Z5
	VFMADD231PS Z5, Z4, Z0

sum1:
	HSUM512G(Z0, Y0, X0, Y8, X8)
	VMOVSS X0, (R8)
	ADDQ   $4, R8
	ADDQ   $4, BX
	DECQ   R10
	JMP    single

done:
	VZEROUPPER
	RET
