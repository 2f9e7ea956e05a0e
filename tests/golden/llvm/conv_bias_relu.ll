; ModuleID = "plaidc"
target triple = "unknown-unknown-unknown"
target datalayout = ""

define internal void @"gemm"(ptr noalias %"A", ptr noalias %"B", ptr noalias %"C", ptr noalias %"scratch") "prefer-vector-width"="512"
{
entry:
  %"i0.slot" = alloca i64
  %"p.slot" = alloca i64
  %"c0_0" = alloca <16 x float>
  %"c1_0" = alloca <16 x float>
  %"c2_0" = alloca <16 x float>
  %"c3_0" = alloca <16 x float>
  %"c4_0" = alloca <16 x float>
  %"c5_0" = alloca <16 x float>
  %"c6_0" = alloca <16 x float>
  %"c7_0" = alloca <16 x float>
  %"c8_0" = alloca <16 x float>
  %"c9_0" = alloca <16 x float>
  %"c10_0" = alloca <16 x float>
  %"c11_0" = alloca <16 x float>
  %"c12_0" = alloca <16 x float>
  %"c13_0" = alloca <16 x float>
  %"k.slot" = alloca i64
  br label %"start"
start:
  ; micro-kernel C += A B: 14x16x8 fp32, A strides (128, 1), B strides (16, 1), C row stride 16; 14x16 register block
  store i64 0, ptr %"i0.slot"
  br label %"i0.head"
i0.head:
  %"i0" = load i64, ptr %"i0.slot"
  %".9" = icmp slt i64 %"i0", 14
  br i1 %".9", label %"i0.body", label %"i0.exit"
i0.body:
  store i64 0, ptr %"p.slot"
  br label %"p.head"
i0.exit:
  ret void
p.head:
  %"p" = load i64, ptr %"p.slot"
  %".13" = icmp slt i64 %"p", 1
  br i1 %".13", label %"p.body", label %"p.exit"
p.body:
  %".15" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".16" = shufflevector <16 x float> %".15", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".16", ptr %"c0_0"
  %".18" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".19" = shufflevector <16 x float> %".18", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".19", ptr %"c1_0"
  %".21" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".22" = shufflevector <16 x float> %".21", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".22", ptr %"c2_0"
  %".24" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".25" = shufflevector <16 x float> %".24", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".25", ptr %"c3_0"
  %".27" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".28" = shufflevector <16 x float> %".27", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".28", ptr %"c4_0"
  %".30" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".31" = shufflevector <16 x float> %".30", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".31", ptr %"c5_0"
  %".33" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".34" = shufflevector <16 x float> %".33", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".34", ptr %"c6_0"
  %".36" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".37" = shufflevector <16 x float> %".36", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".37", ptr %"c7_0"
  %".39" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".40" = shufflevector <16 x float> %".39", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".40", ptr %"c8_0"
  %".42" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".43" = shufflevector <16 x float> %".42", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".43", ptr %"c9_0"
  %".45" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".46" = shufflevector <16 x float> %".45", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".46", ptr %"c10_0"
  %".48" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".49" = shufflevector <16 x float> %".48", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".49", ptr %"c11_0"
  %".51" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".52" = shufflevector <16 x float> %".51", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".52", ptr %"c12_0"
  %".54" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".55" = shufflevector <16 x float> %".54", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".55", ptr %"c13_0"
  store i64 0, ptr %"k.slot"
  br label %"k.head"
p.exit:
  %".433" = add i64 %"i0", 14
  store i64 %".433", ptr %"i0.slot"
  br label %"i0.head"
k.head:
  %"k" = load i64, ptr %"k.slot"
  %".59" = icmp slt i64 %"k", 8
  br i1 %".59", label %"k.body", label %"k.exit"
k.body:
  %".61" = mul i64 %"k", 16
  %".62" = mul i64 %"p", 16
  %".63" = add i64 %".61", %".62"
  %".64" = getelementptr inbounds float, ptr %"B", i64 %".63"
  %"b0" = load <16 x float>, ptr %".64", align 4
  %".66" = mul i64 %"i0", 128
  %".67" = add i64 %".66", %"k"
  %".68" = getelementptr inbounds float, ptr %"A", i64 %".67"
  %".69" = load float, ptr %".68", align 4
  %".70" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".69", i32 0
  %"a0" = shufflevector <16 x float> %".70", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".72" = load <16 x float>, ptr %"c0_0"
  %".73" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a0", <16 x float> %"b0", <16 x float> %".72")
  store <16 x float> %".73", ptr %"c0_0"
  %".75" = mul i64 %"i0", 128
  %".76" = add i64 %".75", %"k"
  %".77" = add i64 %".76", 128
  %".78" = getelementptr inbounds float, ptr %"A", i64 %".77"
  %".79" = load float, ptr %".78", align 4
  %".80" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".79", i32 0
  %"a1" = shufflevector <16 x float> %".80", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".82" = load <16 x float>, ptr %"c1_0"
  %".83" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a1", <16 x float> %"b0", <16 x float> %".82")
  store <16 x float> %".83", ptr %"c1_0"
  %".85" = mul i64 %"i0", 128
  %".86" = add i64 %".85", %"k"
  %".87" = add i64 %".86", 256
  %".88" = getelementptr inbounds float, ptr %"A", i64 %".87"
  %".89" = load float, ptr %".88", align 4
  %".90" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".89", i32 0
  %"a2" = shufflevector <16 x float> %".90", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".92" = load <16 x float>, ptr %"c2_0"
  %".93" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a2", <16 x float> %"b0", <16 x float> %".92")
  store <16 x float> %".93", ptr %"c2_0"
  %".95" = mul i64 %"i0", 128
  %".96" = add i64 %".95", %"k"
  %".97" = add i64 %".96", 384
  %".98" = getelementptr inbounds float, ptr %"A", i64 %".97"
  %".99" = load float, ptr %".98", align 4
  %".100" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".99", i32 0
  %"a3" = shufflevector <16 x float> %".100", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".102" = load <16 x float>, ptr %"c3_0"
  %".103" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a3", <16 x float> %"b0", <16 x float> %".102")
  store <16 x float> %".103", ptr %"c3_0"
  %".105" = mul i64 %"i0", 128
  %".106" = add i64 %".105", %"k"
  %".107" = add i64 %".106", 512
  %".108" = getelementptr inbounds float, ptr %"A", i64 %".107"
  %".109" = load float, ptr %".108", align 4
  %".110" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".109", i32 0
  %"a4" = shufflevector <16 x float> %".110", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".112" = load <16 x float>, ptr %"c4_0"
  %".113" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a4", <16 x float> %"b0", <16 x float> %".112")
  store <16 x float> %".113", ptr %"c4_0"
  %".115" = mul i64 %"i0", 128
  %".116" = add i64 %".115", %"k"
  %".117" = add i64 %".116", 640
  %".118" = getelementptr inbounds float, ptr %"A", i64 %".117"
  %".119" = load float, ptr %".118", align 4
  %".120" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".119", i32 0
  %"a5" = shufflevector <16 x float> %".120", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".122" = load <16 x float>, ptr %"c5_0"
  %".123" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a5", <16 x float> %"b0", <16 x float> %".122")
  store <16 x float> %".123", ptr %"c5_0"
  %".125" = mul i64 %"i0", 128
  %".126" = add i64 %".125", %"k"
  %".127" = add i64 %".126", 768
  %".128" = getelementptr inbounds float, ptr %"A", i64 %".127"
  %".129" = load float, ptr %".128", align 4
  %".130" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".129", i32 0
  %"a6" = shufflevector <16 x float> %".130", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".132" = load <16 x float>, ptr %"c6_0"
  %".133" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a6", <16 x float> %"b0", <16 x float> %".132")
  store <16 x float> %".133", ptr %"c6_0"
  %".135" = mul i64 %"i0", 128
  %".136" = add i64 %".135", %"k"
  %".137" = add i64 %".136", 896
  %".138" = getelementptr inbounds float, ptr %"A", i64 %".137"
  %".139" = load float, ptr %".138", align 4
  %".140" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".139", i32 0
  %"a7" = shufflevector <16 x float> %".140", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".142" = load <16 x float>, ptr %"c7_0"
  %".143" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a7", <16 x float> %"b0", <16 x float> %".142")
  store <16 x float> %".143", ptr %"c7_0"
  %".145" = mul i64 %"i0", 128
  %".146" = add i64 %".145", %"k"
  %".147" = add i64 %".146", 1024
  %".148" = getelementptr inbounds float, ptr %"A", i64 %".147"
  %".149" = load float, ptr %".148", align 4
  %".150" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".149", i32 0
  %"a8" = shufflevector <16 x float> %".150", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".152" = load <16 x float>, ptr %"c8_0"
  %".153" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a8", <16 x float> %"b0", <16 x float> %".152")
  store <16 x float> %".153", ptr %"c8_0"
  %".155" = mul i64 %"i0", 128
  %".156" = add i64 %".155", %"k"
  %".157" = add i64 %".156", 1152
  %".158" = getelementptr inbounds float, ptr %"A", i64 %".157"
  %".159" = load float, ptr %".158", align 4
  %".160" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".159", i32 0
  %"a9" = shufflevector <16 x float> %".160", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".162" = load <16 x float>, ptr %"c9_0"
  %".163" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a9", <16 x float> %"b0", <16 x float> %".162")
  store <16 x float> %".163", ptr %"c9_0"
  %".165" = mul i64 %"i0", 128
  %".166" = add i64 %".165", %"k"
  %".167" = add i64 %".166", 1280
  %".168" = getelementptr inbounds float, ptr %"A", i64 %".167"
  %".169" = load float, ptr %".168", align 4
  %".170" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".169", i32 0
  %"a10" = shufflevector <16 x float> %".170", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".172" = load <16 x float>, ptr %"c10_0"
  %".173" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a10", <16 x float> %"b0", <16 x float> %".172")
  store <16 x float> %".173", ptr %"c10_0"
  %".175" = mul i64 %"i0", 128
  %".176" = add i64 %".175", %"k"
  %".177" = add i64 %".176", 1408
  %".178" = getelementptr inbounds float, ptr %"A", i64 %".177"
  %".179" = load float, ptr %".178", align 4
  %".180" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".179", i32 0
  %"a11" = shufflevector <16 x float> %".180", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".182" = load <16 x float>, ptr %"c11_0"
  %".183" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a11", <16 x float> %"b0", <16 x float> %".182")
  store <16 x float> %".183", ptr %"c11_0"
  %".185" = mul i64 %"i0", 128
  %".186" = add i64 %".185", %"k"
  %".187" = add i64 %".186", 1536
  %".188" = getelementptr inbounds float, ptr %"A", i64 %".187"
  %".189" = load float, ptr %".188", align 4
  %".190" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".189", i32 0
  %"a12" = shufflevector <16 x float> %".190", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".192" = load <16 x float>, ptr %"c12_0"
  %".193" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a12", <16 x float> %"b0", <16 x float> %".192")
  store <16 x float> %".193", ptr %"c12_0"
  %".195" = mul i64 %"i0", 128
  %".196" = add i64 %".195", %"k"
  %".197" = add i64 %".196", 1664
  %".198" = getelementptr inbounds float, ptr %"A", i64 %".197"
  %".199" = load float, ptr %".198", align 4
  %".200" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".199", i32 0
  %"a13" = shufflevector <16 x float> %".200", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".202" = load <16 x float>, ptr %"c13_0"
  %".203" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a13", <16 x float> %"b0", <16 x float> %".202")
  store <16 x float> %".203", ptr %"c13_0"
  %".205" = add i64 %"k", 1
  store i64 %".205", ptr %"k.slot"
  br label %"k.head"
k.exit:
  %".208" = load <16 x float>, ptr %"c0_0"
  %".209" = mul i64 %"i0", 16
  %".210" = mul i64 %"p", 16
  %".211" = add i64 %".209", %".210"
  %".212" = getelementptr inbounds float, ptr %"C", i64 %".211"
  %".213" = load <16 x float>, ptr %".212", align 4
  %".214" = fadd <16 x float> %".208", %".213"
  store <16 x float> %".214", ptr %"c0_0"
  %".216" = load <16 x float>, ptr %"c1_0"
  %".217" = mul i64 %"i0", 16
  %".218" = mul i64 %"p", 16
  %".219" = add i64 %".217", %".218"
  %".220" = add i64 %".219", 16
  %".221" = getelementptr inbounds float, ptr %"C", i64 %".220"
  %".222" = load <16 x float>, ptr %".221", align 4
  %".223" = fadd <16 x float> %".216", %".222"
  store <16 x float> %".223", ptr %"c1_0"
  %".225" = load <16 x float>, ptr %"c2_0"
  %".226" = mul i64 %"i0", 16
  %".227" = mul i64 %"p", 16
  %".228" = add i64 %".226", %".227"
  %".229" = add i64 %".228", 32
  %".230" = getelementptr inbounds float, ptr %"C", i64 %".229"
  %".231" = load <16 x float>, ptr %".230", align 4
  %".232" = fadd <16 x float> %".225", %".231"
  store <16 x float> %".232", ptr %"c2_0"
  %".234" = load <16 x float>, ptr %"c3_0"
  %".235" = mul i64 %"i0", 16
  %".236" = mul i64 %"p", 16
  %".237" = add i64 %".235", %".236"
  %".238" = add i64 %".237", 48
  %".239" = getelementptr inbounds float, ptr %"C", i64 %".238"
  %".240" = load <16 x float>, ptr %".239", align 4
  %".241" = fadd <16 x float> %".234", %".240"
  store <16 x float> %".241", ptr %"c3_0"
  %".243" = load <16 x float>, ptr %"c4_0"
  %".244" = mul i64 %"i0", 16
  %".245" = mul i64 %"p", 16
  %".246" = add i64 %".244", %".245"
  %".247" = add i64 %".246", 64
  %".248" = getelementptr inbounds float, ptr %"C", i64 %".247"
  %".249" = load <16 x float>, ptr %".248", align 4
  %".250" = fadd <16 x float> %".243", %".249"
  store <16 x float> %".250", ptr %"c4_0"
  %".252" = load <16 x float>, ptr %"c5_0"
  %".253" = mul i64 %"i0", 16
  %".254" = mul i64 %"p", 16
  %".255" = add i64 %".253", %".254"
  %".256" = add i64 %".255", 80
  %".257" = getelementptr inbounds float, ptr %"C", i64 %".256"
  %".258" = load <16 x float>, ptr %".257", align 4
  %".259" = fadd <16 x float> %".252", %".258"
  store <16 x float> %".259", ptr %"c5_0"
  %".261" = load <16 x float>, ptr %"c6_0"
  %".262" = mul i64 %"i0", 16
  %".263" = mul i64 %"p", 16
  %".264" = add i64 %".262", %".263"
  %".265" = add i64 %".264", 96
  %".266" = getelementptr inbounds float, ptr %"C", i64 %".265"
  %".267" = load <16 x float>, ptr %".266", align 4
  %".268" = fadd <16 x float> %".261", %".267"
  store <16 x float> %".268", ptr %"c6_0"
  %".270" = load <16 x float>, ptr %"c7_0"
  %".271" = mul i64 %"i0", 16
  %".272" = mul i64 %"p", 16
  %".273" = add i64 %".271", %".272"
  %".274" = add i64 %".273", 112
  %".275" = getelementptr inbounds float, ptr %"C", i64 %".274"
  %".276" = load <16 x float>, ptr %".275", align 4
  %".277" = fadd <16 x float> %".270", %".276"
  store <16 x float> %".277", ptr %"c7_0"
  %".279" = load <16 x float>, ptr %"c8_0"
  %".280" = mul i64 %"i0", 16
  %".281" = mul i64 %"p", 16
  %".282" = add i64 %".280", %".281"
  %".283" = add i64 %".282", 128
  %".284" = getelementptr inbounds float, ptr %"C", i64 %".283"
  %".285" = load <16 x float>, ptr %".284", align 4
  %".286" = fadd <16 x float> %".279", %".285"
  store <16 x float> %".286", ptr %"c8_0"
  %".288" = load <16 x float>, ptr %"c9_0"
  %".289" = mul i64 %"i0", 16
  %".290" = mul i64 %"p", 16
  %".291" = add i64 %".289", %".290"
  %".292" = add i64 %".291", 144
  %".293" = getelementptr inbounds float, ptr %"C", i64 %".292"
  %".294" = load <16 x float>, ptr %".293", align 4
  %".295" = fadd <16 x float> %".288", %".294"
  store <16 x float> %".295", ptr %"c9_0"
  %".297" = load <16 x float>, ptr %"c10_0"
  %".298" = mul i64 %"i0", 16
  %".299" = mul i64 %"p", 16
  %".300" = add i64 %".298", %".299"
  %".301" = add i64 %".300", 160
  %".302" = getelementptr inbounds float, ptr %"C", i64 %".301"
  %".303" = load <16 x float>, ptr %".302", align 4
  %".304" = fadd <16 x float> %".297", %".303"
  store <16 x float> %".304", ptr %"c10_0"
  %".306" = load <16 x float>, ptr %"c11_0"
  %".307" = mul i64 %"i0", 16
  %".308" = mul i64 %"p", 16
  %".309" = add i64 %".307", %".308"
  %".310" = add i64 %".309", 176
  %".311" = getelementptr inbounds float, ptr %"C", i64 %".310"
  %".312" = load <16 x float>, ptr %".311", align 4
  %".313" = fadd <16 x float> %".306", %".312"
  store <16 x float> %".313", ptr %"c11_0"
  %".315" = load <16 x float>, ptr %"c12_0"
  %".316" = mul i64 %"i0", 16
  %".317" = mul i64 %"p", 16
  %".318" = add i64 %".316", %".317"
  %".319" = add i64 %".318", 192
  %".320" = getelementptr inbounds float, ptr %"C", i64 %".319"
  %".321" = load <16 x float>, ptr %".320", align 4
  %".322" = fadd <16 x float> %".315", %".321"
  store <16 x float> %".322", ptr %"c12_0"
  %".324" = load <16 x float>, ptr %"c13_0"
  %".325" = mul i64 %"i0", 16
  %".326" = mul i64 %"p", 16
  %".327" = add i64 %".325", %".326"
  %".328" = add i64 %".327", 208
  %".329" = getelementptr inbounds float, ptr %"C", i64 %".328"
  %".330" = load <16 x float>, ptr %".329", align 4
  %".331" = fadd <16 x float> %".324", %".330"
  store <16 x float> %".331", ptr %"c13_0"
  %".333" = load <16 x float>, ptr %"c0_0"
  %".334" = mul i64 %"i0", 16
  %".335" = mul i64 %"p", 16
  %".336" = add i64 %".334", %".335"
  %".337" = getelementptr inbounds float, ptr %"C", i64 %".336"
  store <16 x float> %".333", ptr %".337", align 4
  %".339" = load <16 x float>, ptr %"c1_0"
  %".340" = mul i64 %"i0", 16
  %".341" = mul i64 %"p", 16
  %".342" = add i64 %".340", %".341"
  %".343" = add i64 %".342", 16
  %".344" = getelementptr inbounds float, ptr %"C", i64 %".343"
  store <16 x float> %".339", ptr %".344", align 4
  %".346" = load <16 x float>, ptr %"c2_0"
  %".347" = mul i64 %"i0", 16
  %".348" = mul i64 %"p", 16
  %".349" = add i64 %".347", %".348"
  %".350" = add i64 %".349", 32
  %".351" = getelementptr inbounds float, ptr %"C", i64 %".350"
  store <16 x float> %".346", ptr %".351", align 4
  %".353" = load <16 x float>, ptr %"c3_0"
  %".354" = mul i64 %"i0", 16
  %".355" = mul i64 %"p", 16
  %".356" = add i64 %".354", %".355"
  %".357" = add i64 %".356", 48
  %".358" = getelementptr inbounds float, ptr %"C", i64 %".357"
  store <16 x float> %".353", ptr %".358", align 4
  %".360" = load <16 x float>, ptr %"c4_0"
  %".361" = mul i64 %"i0", 16
  %".362" = mul i64 %"p", 16
  %".363" = add i64 %".361", %".362"
  %".364" = add i64 %".363", 64
  %".365" = getelementptr inbounds float, ptr %"C", i64 %".364"
  store <16 x float> %".360", ptr %".365", align 4
  %".367" = load <16 x float>, ptr %"c5_0"
  %".368" = mul i64 %"i0", 16
  %".369" = mul i64 %"p", 16
  %".370" = add i64 %".368", %".369"
  %".371" = add i64 %".370", 80
  %".372" = getelementptr inbounds float, ptr %"C", i64 %".371"
  store <16 x float> %".367", ptr %".372", align 4
  %".374" = load <16 x float>, ptr %"c6_0"
  %".375" = mul i64 %"i0", 16
  %".376" = mul i64 %"p", 16
  %".377" = add i64 %".375", %".376"
  %".378" = add i64 %".377", 96
  %".379" = getelementptr inbounds float, ptr %"C", i64 %".378"
  store <16 x float> %".374", ptr %".379", align 4
  %".381" = load <16 x float>, ptr %"c7_0"
  %".382" = mul i64 %"i0", 16
  %".383" = mul i64 %"p", 16
  %".384" = add i64 %".382", %".383"
  %".385" = add i64 %".384", 112
  %".386" = getelementptr inbounds float, ptr %"C", i64 %".385"
  store <16 x float> %".381", ptr %".386", align 4
  %".388" = load <16 x float>, ptr %"c8_0"
  %".389" = mul i64 %"i0", 16
  %".390" = mul i64 %"p", 16
  %".391" = add i64 %".389", %".390"
  %".392" = add i64 %".391", 128
  %".393" = getelementptr inbounds float, ptr %"C", i64 %".392"
  store <16 x float> %".388", ptr %".393", align 4
  %".395" = load <16 x float>, ptr %"c9_0"
  %".396" = mul i64 %"i0", 16
  %".397" = mul i64 %"p", 16
  %".398" = add i64 %".396", %".397"
  %".399" = add i64 %".398", 144
  %".400" = getelementptr inbounds float, ptr %"C", i64 %".399"
  store <16 x float> %".395", ptr %".400", align 4
  %".402" = load <16 x float>, ptr %"c10_0"
  %".403" = mul i64 %"i0", 16
  %".404" = mul i64 %"p", 16
  %".405" = add i64 %".403", %".404"
  %".406" = add i64 %".405", 160
  %".407" = getelementptr inbounds float, ptr %"C", i64 %".406"
  store <16 x float> %".402", ptr %".407", align 4
  %".409" = load <16 x float>, ptr %"c11_0"
  %".410" = mul i64 %"i0", 16
  %".411" = mul i64 %"p", 16
  %".412" = add i64 %".410", %".411"
  %".413" = add i64 %".412", 176
  %".414" = getelementptr inbounds float, ptr %"C", i64 %".413"
  store <16 x float> %".409", ptr %".414", align 4
  %".416" = load <16 x float>, ptr %"c12_0"
  %".417" = mul i64 %"i0", 16
  %".418" = mul i64 %"p", 16
  %".419" = add i64 %".417", %".418"
  %".420" = add i64 %".419", 192
  %".421" = getelementptr inbounds float, ptr %"C", i64 %".420"
  store <16 x float> %".416", ptr %".421", align 4
  %".423" = load <16 x float>, ptr %"c13_0"
  %".424" = mul i64 %"i0", 16
  %".425" = mul i64 %"p", 16
  %".426" = add i64 %".424", %".425"
  %".427" = add i64 %".426", 208
  %".428" = getelementptr inbounds float, ptr %"C", i64 %".427"
  store <16 x float> %".423", ptr %".428", align 4
  %".430" = add i64 %"p", 1
  store i64 %".430", ptr %"p.slot"
  br label %"p.head"
}

define internal void @"kernel_0"(ptr noalias %"X_I_1", ptr noalias %"X_I_2", ptr noalias %"X_I_0", ptr noalias %"X_T6") "prefer-vector-width"="512"
{
entry:
  %"y.team" = alloca [65 x i32]
  %"y.ctx" = alloca {i64, i64, ptr, ptr, ptr, ptr, ptr}
  br label %"start"
start:
  ; kernel_0
  ; kernel_0(X_I_1,X_I_2)+kernel_1(X_T3,X_I_0)+kernel_2(X_T4,X_T0)+kernel_3(X_T5,X_T0,X_T4)
  %".8" = getelementptr inbounds {i64, i64, ptr, ptr, ptr, ptr, ptr}, ptr %"y.ctx", i32 0, i32 0
  store i64 0, ptr %".8"
  %".10" = getelementptr inbounds {i64, i64, ptr, ptr, ptr, ptr, ptr}, ptr %"y.ctx", i32 0, i32 1
  store i64 14, ptr %".10"
  %".12" = getelementptr inbounds {i64, i64, ptr, ptr, ptr, ptr, ptr}, ptr %"y.ctx", i32 0, i32 2
  store ptr %"X_I_1", ptr %".12"
  %".14" = getelementptr inbounds {i64, i64, ptr, ptr, ptr, ptr, ptr}, ptr %"y.ctx", i32 0, i32 3
  store ptr %"X_I_2", ptr %".14"
  %".16" = getelementptr inbounds {i64, i64, ptr, ptr, ptr, ptr, ptr}, ptr %"y.ctx", i32 0, i32 4
  store ptr %"X_I_0", ptr %".16"
  %".18" = getelementptr inbounds {i64, i64, ptr, ptr, ptr, ptr, ptr}, ptr %"y.ctx", i32 0, i32 5
  store ptr %"X_T6", ptr %".18"
  %".20" = getelementptr inbounds {i64, i64, ptr, ptr, ptr, ptr, ptr}, ptr %"y.ctx", i32 0, i32 6
  store ptr %"y.team", ptr %".20"
  %".22" = call i32 @"plaidc.team_wanted"(ptr @"plaidc.shared_cpu")
  %".23" = icmp ne i32 %".22", 0
  %".24" = select  i1 %".23", i32 0, i32 1
  call void @"GOMP_parallel"(void (ptr)* @"kernel_0.parallel.1", ptr %"y.ctx", i32 %".24", i32 0)
  br i1 %".23", label %"start.if", label %"start.endif"
start.if:
  call void @"plaidc.team_check"(ptr @"plaidc.shared_cpu", ptr %"y.team", i32 64)
  br label %"start.endif"
start.endif:
  ret void
}

define internal void @"plaidc_main"(ptr noalias %"X_I_0", ptr noalias %"X_I_1", ptr noalias %"X_I_2", ptr noalias %"X_T6", ptr noalias %"plaidc_status") "prefer-vector-width"="512"
{
entry:
  br label %"start"
start:
  ; the whole program
  ; main
  call void @"kernel_0"(ptr %"X_I_1", ptr %"X_I_2", ptr %"X_I_0", ptr %"X_T6")
  ret void
}

declare <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %".1", <16 x float> %".2", <16 x float> %".3")

define internal void @"kernel_0.parallel.1"(ptr %".1") "prefer-vector-width"="512"
{
entry:
  %"y.it.slot" = alloca i64
  %"gemm_scratch" = alloca [1 x float], align 64
  %"X_01" = alloca [224 x float], align 64
  %"e1.slot" = alloca i64
  %"e3.slot" = alloca i64
  %"i.slot" = alloca i64
  %"j.slot" = alloca i64
  %"i2.slot" = alloca i64
  %"i4.slot" = alloca i64
  br label %"start"
start:
  %".3" = getelementptr inbounds {i64, i64, ptr, ptr, ptr, ptr, ptr}, ptr %".1", i32 0, i32 0
  %".4" = load i64, ptr %".3"
  %".5" = getelementptr inbounds {i64, i64, ptr, ptr, ptr, ptr, ptr}, ptr %".1", i32 0, i32 1
  %".6" = load i64, ptr %".5"
  %".7" = getelementptr inbounds {i64, i64, ptr, ptr, ptr, ptr, ptr}, ptr %".1", i32 0, i32 2
  %".8" = load ptr, ptr %".7"
  %".9" = getelementptr inbounds {i64, i64, ptr, ptr, ptr, ptr, ptr}, ptr %".1", i32 0, i32 3
  %".10" = load ptr, ptr %".9"
  %".11" = getelementptr inbounds {i64, i64, ptr, ptr, ptr, ptr, ptr}, ptr %".1", i32 0, i32 4
  %".12" = load ptr, ptr %".11"
  %".13" = getelementptr inbounds {i64, i64, ptr, ptr, ptr, ptr, ptr}, ptr %".1", i32 0, i32 5
  %".14" = load ptr, ptr %".13"
  %".15" = getelementptr inbounds {i64, i64, ptr, ptr, ptr, ptr, ptr}, ptr %".1", i32 0, i32 6
  %".16" = load ptr, ptr %".15"
  call void @"plaidc.team_mark"(ptr %".16")
  %".18" = call i32 @"omp_get_thread_num"()
  %".19" = sext i32 %".18" to i64
  %".20" = call i32 @"omp_get_num_threads"()
  %".21" = sext i32 %".20" to i64
  %".22" = sub i64 %".6", %".4"
  %".23" = add i64 %".22", 0
  %".24" = sdiv i64 %".23", 1
  %".25" = icmp slt i64 %".24", 0
  %".26" = select  i1 %".25", i64 0, i64 %".24"
  %".27" = sub i64 %".21", 1
  %".28" = add i64 %".26", %".27"
  %".29" = sdiv i64 %".28", %".21"
  %".30" = mul i64 %".19", %".29"
  %".31" = add i64 %".30", %".29"
  %".32" = icmp slt i64 %".31", %".26"
  %".33" = select  i1 %".32", i64 %".31", i64 %".26"
  store i64 %".30", ptr %"y.it.slot"
  br label %"y.it.head"
y.it.head:
  %"y.it" = load i64, ptr %"y.it.slot"
  %".36" = icmp slt i64 %"y.it", %".33"
  br i1 %".36", label %"y.it.body", label %"y.it.exit"
y.it.body:
  %".38" = mul i64 %"y.it", 1
  %"y" = add i64 %".4", %".38"
  ; kernel_0(X_I_1,X_I_2)+kernel_1(X_T3,X_I_0)+kernel_2(X_T4,X_T0)+kernel_3(X_T5,X_T0,X_T4)
  ; kernel_0(X_I_1,X_I_2)
  ; initialise what 'X_01' aggregates (add)
  store i64 0, ptr %"e1.slot"
  br label %"e1.head"
y.it.exit:
  ret void
e1.head:
  %"e1" = load i64, ptr %"e1.slot"
  %".45" = icmp slt i64 %"e1", 14
  br i1 %".45", label %"e1.body", label %"e1.exit"
e1.body:
  store i64 0, ptr %"e3.slot"
  br label %"e3.head"
e1.exit:
  store i64 0, ptr %"i.slot"
  br label %"i.head"
e3.head:
  %"e3" = load i64, ptr %"e3.slot"
  %".49" = icmp slt i64 %"e3", 16
  br i1 %".49", label %"e3.body", label %"e3.exit"
e3.body:
  %".51" = mul i64 %"e1", 16
  %".52" = add i64 %".51", %"e3"
  %".53" = getelementptr inbounds float, ptr %"X_01", i64 %".52"
  store float              0x0, ptr %".53", align 4
  %".55" = add i64 %"e3", 1
  store i64 %".55", ptr %"e3.slot"
  br label %"e3.head", !llvm.loop !2
e3.exit:
  %".58" = add i64 %"e1", 1
  store i64 %".58", ptr %"e1.slot"
  br label %"e1.head"
i.head:
  %"i" = load i64, ptr %"i.slot"
  %".63" = icmp slt i64 %"i", 3
  br i1 %".63", label %"i.body", label %"i.exit"
i.body:
  store i64 0, ptr %"j.slot"
  br label %"j.head"
i.exit:
  ; kernel_1(X_T3,X_I_0)+kernel_2(X_T4,X_T0)+kernel_3(X_T5,X_T0,X_T4)
  store i64 0, ptr %"i2.slot"
  br label %"i2.head"
j.head:
  %"j" = load i64, ptr %"j.slot"
  %".67" = icmp slt i64 %"j", 3
  br i1 %".67", label %"j.body", label %"j.exit"
j.body:
  ; #0
  %".70" = mul i64 %"i", 128
  %".71" = mul i64 %"j", 8
  %".72" = add i64 %".70", %".71"
  %".73" = mul i64 %"y", 8
  %".74" = add i64 %".72", %".73"
  %".75" = getelementptr inbounds float, ptr %".8", i64 %".74"
  %".76" = mul i64 %"i", 384
  %".77" = mul i64 %"j", 128
  %".78" = add i64 %".76", %".77"
  %".79" = getelementptr inbounds float, ptr %".10", i64 %".78"
  call void @"gemm"(ptr %".75", ptr %".79", ptr %"X_01", ptr %"gemm_scratch")
  %".81" = add i64 %"j", 1
  store i64 %".81", ptr %"j.slot"
  br label %"j.head"
j.exit:
  %".84" = add i64 %"i", 1
  store i64 %".84", ptr %"i.slot"
  br label %"i.head"
i2.head:
  %"i2" = load i64, ptr %"i2.slot"
  %".90" = icmp slt i64 %"i2", 14
  br i1 %".90", label %"i2.body", label %"i2.exit"
i2.body:
  store i64 0, ptr %"i4.slot"
  br label %"i4.head"
i2.exit:
  %".117" = add i64 %"y.it", 1
  store i64 %".117", ptr %"y.it.slot"
  br label %"y.it.head"
i4.head:
  %"i4" = load i64, ptr %"i4.slot"
  %".94" = icmp slt i64 %"i4", 16
  br i1 %".94", label %"i4.body", label %"i4.exit"
i4.body:
  %".96" = mul i64 %"i2", 16
  %".97" = add i64 %".96", %"i4"
  %".98" = getelementptr inbounds float, ptr %"X_01", i64 %".97"
  %"X_T3" = load float, ptr %".98", align 4
  %".100" = getelementptr inbounds float, ptr %".12", i64 %"i4"
  %"X_I_0_1" = load float, ptr %".100", align 4
  %"X_T4" = fadd float %"X_T3", %"X_I_0_1"
  %"X_T5" = fcmp olt float %"X_T4",              0x0
  %"X_T6_1" = select  i1 %"X_T5", float              0x0, float %"X_T4"
  %".105" = mul i64 %"i2", 224
  %".106" = add i64 %".105", %"i4"
  %".107" = mul i64 %"y", 16
  %".108" = add i64 %".106", %".107"
  %".109" = getelementptr inbounds float, ptr %".14", i64 %".108"
  store float %"X_T6_1", ptr %".109", align 4
  %".111" = add i64 %"i4", 1
  store i64 %".111", ptr %"i4.slot"
  br label %"i4.head", !llvm.loop !3
i4.exit:
  %".114" = add i64 %"i2", 1
  store i64 %".114", ptr %"i2.slot"
  br label %"i2.head"
}

define internal void @"plaidc.team_mark"(ptr %".1")
{
entry:
  %".3" = call i32 @"omp_get_thread_num"()
  %".4" = icmp eq i32 %".3", 0
  br i1 %".4", label %"entry.if", label %"entry.endif"
entry.if:
  %".6" = call i32 @"omp_get_num_threads"()
  %".7" = getelementptr inbounds i32, ptr %".1", i32 0
  store i32 %".6", ptr %".7"
  br label %"entry.endif"
entry.endif:
  %".10" = icmp slt i32 %".3", 64
  br i1 %".10", label %"entry.endif.if", label %"entry.endif.endif"
entry.endif.if:
  %".12" = call i32 @"sched_getcpu"()
  %".13" = add i32 %".3", 1
  %".14" = getelementptr inbounds i32, ptr %".1", i32 %".13"
  store i32 %".12", ptr %".14"
  br label %"entry.endif.endif"
entry.endif.endif:
  ret void
}

declare i32 @"omp_get_thread_num"()

declare i32 @"omp_get_num_threads"()

declare i32 @"sched_getcpu"()

declare void @"GOMP_parallel"(ptr %".1", ptr %".2", i32 %".3", i32 %".4")

@"plaidc.shared_cpu" = internal global [2 x i32] zeroinitializer, align 8
define internal i32 @"plaidc.team_wanted"(ptr %".1")
{
entry:
  %".3" = getelementptr inbounds i32, ptr %".1", i32 0
  %".4" = load atomic i32, ptr %".3" monotonic, align 4
  %".5" = icmp sgt i32 %".4", 0
  br i1 %".5", label %"serial", label %"threads"
serial:
  %".7" = sub i32 %".4", 1
  %".8" = getelementptr inbounds i32, ptr %".1", i32 0
  %".9" = atomicrmw xchg ptr %".8", i32 %".7" monotonic
  ret i32 0
threads:
  ret i32 1
}

define internal void @"plaidc.team_check"(ptr %".1", ptr %".2", i32 %".3")
{
entry:
  %".5" = getelementptr inbounds i32, ptr %".2", i32 0
  %".6" = load i32, ptr %".5"
  %".7" = icmp slt i32 %".6", 64
  %".8" = select  i1 %".7", i32 %".6", i32 64
  br label %"outer"
outer:
  %".10" = phi  i32 [0, %"entry"], [%".13", %"next"]
  %".11" = icmp slt i32 %".10", %".8"
  br i1 %".11", label %"inner_start", label %"done"
inner_start:
  %".13" = add i32 %".10", 1
  %".14" = getelementptr inbounds i32, ptr %".2", i32 %".13"
  %".15" = load i32, ptr %".14"
  br label %"inner"
inner:
  %".17" = phi  i32 [%".13", %"inner_start"], [%".27", %"step"]
  %".18" = icmp slt i32 %".17", %".8"
  br i1 %".18", label %"compare", label %"next"
compare:
  %".20" = add i32 %".17", 1
  %".21" = getelementptr inbounds i32, ptr %".2", i32 %".20"
  %".22" = load i32, ptr %".21"
  %".23" = icmp sge i32 %".15", 0
  %".24" = icmp eq i32 %".15", %".22"
  %".25" = and i1 %".23", %".24"
  br i1 %".25", label %"done", label %"step"
step:
  %".27" = add i32 %".17", 1
  br label %"inner"
next:
  br label %"outer"
done:
  %".30" = phi  i1 [0, %"outer"], [1, %"compare"]
  %".31" = getelementptr inbounds i32, ptr %".1", i32 1
  %".32" = load atomic i32, ptr %".31" monotonic, align 4
  %".33" = sdiv i32 %".3", 2
  %".34" = icmp slt i32 %".32", %".33"
  %".35" = mul i32 %".32", 2
  %".36" = select  i1 %".34", i32 %".35", i32 %".3"
  %".37" = icmp sle i32 %".32", 0
  %".38" = select  i1 %".37", i32 1, i32 %".36"
  %".39" = select  i1 %".30", i32 %".38", i32 0
  %".40" = getelementptr inbounds i32, ptr %".1", i32 1
  %".41" = atomicrmw xchg ptr %".40", i32 %".39" monotonic
  %".42" = getelementptr inbounds i32, ptr %".1", i32 0
  %".43" = atomicrmw xchg ptr %".42", i32 %".39" monotonic
  ret void
}

define void @"plaidc_entry"(ptr %".1") "prefer-vector-width"="512"
{
entry:
  %".3" = getelementptr inbounds ptr, ptr %".1", i64 0
  %".4" = load ptr, ptr %".3"
  %".5" = getelementptr inbounds ptr, ptr %".1", i64 1
  %".6" = load ptr, ptr %".5"
  %".7" = getelementptr inbounds ptr, ptr %".1", i64 2
  %".8" = load ptr, ptr %".7"
  %".9" = getelementptr inbounds ptr, ptr %".1", i64 3
  %".10" = load ptr, ptr %".9"
  %".11" = getelementptr inbounds ptr, ptr %".1", i64 4
  %".12" = load ptr, ptr %".11"
  call void @"plaidc_main"(ptr %".4", ptr %".6", ptr %".8", ptr %".10", ptr %".12")
  ret void
}

!0 = !{ !"llvm.loop.vectorize.enable", i1 1 }
!1 = !{ !"llvm.loop.unroll.disable" }
!2 = distinct !{ !2, !0, !1 }
!3 = distinct !{ !3, !0, !1 }