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
  %".15" = mul i64 %"i0", 16
  %".16" = mul i64 %"p", 16
  %".17" = add i64 %".15", %".16"
  %".18" = getelementptr inbounds float, ptr %"C", i64 %".17"
  call void @"llvm.prefetch.p0"(ptr %".18", i32 1, i32 3, i32 1)
  %".20" = add i64 %"i0", 1
  %".21" = mul i64 %".20", 16
  %".22" = mul i64 %"p", 16
  %".23" = add i64 %".21", %".22"
  %".24" = getelementptr inbounds float, ptr %"C", i64 %".23"
  call void @"llvm.prefetch.p0"(ptr %".24", i32 1, i32 3, i32 1)
  %".26" = add i64 %"i0", 2
  %".27" = mul i64 %".26", 16
  %".28" = mul i64 %"p", 16
  %".29" = add i64 %".27", %".28"
  %".30" = getelementptr inbounds float, ptr %"C", i64 %".29"
  call void @"llvm.prefetch.p0"(ptr %".30", i32 1, i32 3, i32 1)
  %".32" = add i64 %"i0", 3
  %".33" = mul i64 %".32", 16
  %".34" = mul i64 %"p", 16
  %".35" = add i64 %".33", %".34"
  %".36" = getelementptr inbounds float, ptr %"C", i64 %".35"
  call void @"llvm.prefetch.p0"(ptr %".36", i32 1, i32 3, i32 1)
  %".38" = add i64 %"i0", 4
  %".39" = mul i64 %".38", 16
  %".40" = mul i64 %"p", 16
  %".41" = add i64 %".39", %".40"
  %".42" = getelementptr inbounds float, ptr %"C", i64 %".41"
  call void @"llvm.prefetch.p0"(ptr %".42", i32 1, i32 3, i32 1)
  %".44" = add i64 %"i0", 5
  %".45" = mul i64 %".44", 16
  %".46" = mul i64 %"p", 16
  %".47" = add i64 %".45", %".46"
  %".48" = getelementptr inbounds float, ptr %"C", i64 %".47"
  call void @"llvm.prefetch.p0"(ptr %".48", i32 1, i32 3, i32 1)
  %".50" = add i64 %"i0", 6
  %".51" = mul i64 %".50", 16
  %".52" = mul i64 %"p", 16
  %".53" = add i64 %".51", %".52"
  %".54" = getelementptr inbounds float, ptr %"C", i64 %".53"
  call void @"llvm.prefetch.p0"(ptr %".54", i32 1, i32 3, i32 1)
  %".56" = add i64 %"i0", 7
  %".57" = mul i64 %".56", 16
  %".58" = mul i64 %"p", 16
  %".59" = add i64 %".57", %".58"
  %".60" = getelementptr inbounds float, ptr %"C", i64 %".59"
  call void @"llvm.prefetch.p0"(ptr %".60", i32 1, i32 3, i32 1)
  %".62" = add i64 %"i0", 8
  %".63" = mul i64 %".62", 16
  %".64" = mul i64 %"p", 16
  %".65" = add i64 %".63", %".64"
  %".66" = getelementptr inbounds float, ptr %"C", i64 %".65"
  call void @"llvm.prefetch.p0"(ptr %".66", i32 1, i32 3, i32 1)
  %".68" = add i64 %"i0", 9
  %".69" = mul i64 %".68", 16
  %".70" = mul i64 %"p", 16
  %".71" = add i64 %".69", %".70"
  %".72" = getelementptr inbounds float, ptr %"C", i64 %".71"
  call void @"llvm.prefetch.p0"(ptr %".72", i32 1, i32 3, i32 1)
  %".74" = add i64 %"i0", 10
  %".75" = mul i64 %".74", 16
  %".76" = mul i64 %"p", 16
  %".77" = add i64 %".75", %".76"
  %".78" = getelementptr inbounds float, ptr %"C", i64 %".77"
  call void @"llvm.prefetch.p0"(ptr %".78", i32 1, i32 3, i32 1)
  %".80" = add i64 %"i0", 11
  %".81" = mul i64 %".80", 16
  %".82" = mul i64 %"p", 16
  %".83" = add i64 %".81", %".82"
  %".84" = getelementptr inbounds float, ptr %"C", i64 %".83"
  call void @"llvm.prefetch.p0"(ptr %".84", i32 1, i32 3, i32 1)
  %".86" = add i64 %"i0", 12
  %".87" = mul i64 %".86", 16
  %".88" = mul i64 %"p", 16
  %".89" = add i64 %".87", %".88"
  %".90" = getelementptr inbounds float, ptr %"C", i64 %".89"
  call void @"llvm.prefetch.p0"(ptr %".90", i32 1, i32 3, i32 1)
  %".92" = add i64 %"i0", 13
  %".93" = mul i64 %".92", 16
  %".94" = mul i64 %"p", 16
  %".95" = add i64 %".93", %".94"
  %".96" = getelementptr inbounds float, ptr %"C", i64 %".95"
  call void @"llvm.prefetch.p0"(ptr %".96", i32 1, i32 3, i32 1)
  %".98" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".99" = shufflevector <16 x float> %".98", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".99", ptr %"c0_0"
  %".101" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".102" = shufflevector <16 x float> %".101", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".102", ptr %"c1_0"
  %".104" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".105" = shufflevector <16 x float> %".104", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".105", ptr %"c2_0"
  %".107" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".108" = shufflevector <16 x float> %".107", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".108", ptr %"c3_0"
  %".110" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".111" = shufflevector <16 x float> %".110", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".111", ptr %"c4_0"
  %".113" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".114" = shufflevector <16 x float> %".113", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".114", ptr %"c5_0"
  %".116" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".117" = shufflevector <16 x float> %".116", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".117", ptr %"c6_0"
  %".119" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".120" = shufflevector <16 x float> %".119", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".120", ptr %"c7_0"
  %".122" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".123" = shufflevector <16 x float> %".122", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".123", ptr %"c8_0"
  %".125" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".126" = shufflevector <16 x float> %".125", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".126", ptr %"c9_0"
  %".128" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".129" = shufflevector <16 x float> %".128", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".129", ptr %"c10_0"
  %".131" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".132" = shufflevector <16 x float> %".131", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".132", ptr %"c11_0"
  %".134" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".135" = shufflevector <16 x float> %".134", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".135", ptr %"c12_0"
  %".137" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".138" = shufflevector <16 x float> %".137", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".138", ptr %"c13_0"
  store i64 0, ptr %"k.slot"
  br label %"k.head"
p.exit:
  %".516" = add i64 %"i0", 14
  store i64 %".516", ptr %"i0.slot"
  br label %"i0.head"
k.head:
  %"k" = load i64, ptr %"k.slot"
  %".142" = icmp slt i64 %"k", 8
  br i1 %".142", label %"k.body", label %"k.exit"
k.body:
  %".144" = mul i64 %"k", 16
  %".145" = mul i64 %"p", 16
  %".146" = add i64 %".144", %".145"
  %".147" = getelementptr inbounds float, ptr %"B", i64 %".146"
  %"b0" = load <16 x float>, ptr %".147", align 4
  %".149" = mul i64 %"i0", 128
  %".150" = add i64 %".149", %"k"
  %".151" = getelementptr inbounds float, ptr %"A", i64 %".150"
  %".152" = load float, ptr %".151", align 4
  %".153" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".152", i32 0
  %"a0" = shufflevector <16 x float> %".153", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".155" = load <16 x float>, ptr %"c0_0"
  %".156" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a0", <16 x float> %"b0", <16 x float> %".155")
  store <16 x float> %".156", ptr %"c0_0"
  %".158" = mul i64 %"i0", 128
  %".159" = add i64 %".158", %"k"
  %".160" = add i64 %".159", 128
  %".161" = getelementptr inbounds float, ptr %"A", i64 %".160"
  %".162" = load float, ptr %".161", align 4
  %".163" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".162", i32 0
  %"a1" = shufflevector <16 x float> %".163", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".165" = load <16 x float>, ptr %"c1_0"
  %".166" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a1", <16 x float> %"b0", <16 x float> %".165")
  store <16 x float> %".166", ptr %"c1_0"
  %".168" = mul i64 %"i0", 128
  %".169" = add i64 %".168", %"k"
  %".170" = add i64 %".169", 256
  %".171" = getelementptr inbounds float, ptr %"A", i64 %".170"
  %".172" = load float, ptr %".171", align 4
  %".173" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".172", i32 0
  %"a2" = shufflevector <16 x float> %".173", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".175" = load <16 x float>, ptr %"c2_0"
  %".176" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a2", <16 x float> %"b0", <16 x float> %".175")
  store <16 x float> %".176", ptr %"c2_0"
  %".178" = mul i64 %"i0", 128
  %".179" = add i64 %".178", %"k"
  %".180" = add i64 %".179", 384
  %".181" = getelementptr inbounds float, ptr %"A", i64 %".180"
  %".182" = load float, ptr %".181", align 4
  %".183" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".182", i32 0
  %"a3" = shufflevector <16 x float> %".183", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".185" = load <16 x float>, ptr %"c3_0"
  %".186" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a3", <16 x float> %"b0", <16 x float> %".185")
  store <16 x float> %".186", ptr %"c3_0"
  %".188" = mul i64 %"i0", 128
  %".189" = add i64 %".188", %"k"
  %".190" = add i64 %".189", 512
  %".191" = getelementptr inbounds float, ptr %"A", i64 %".190"
  %".192" = load float, ptr %".191", align 4
  %".193" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".192", i32 0
  %"a4" = shufflevector <16 x float> %".193", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".195" = load <16 x float>, ptr %"c4_0"
  %".196" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a4", <16 x float> %"b0", <16 x float> %".195")
  store <16 x float> %".196", ptr %"c4_0"
  %".198" = mul i64 %"i0", 128
  %".199" = add i64 %".198", %"k"
  %".200" = add i64 %".199", 640
  %".201" = getelementptr inbounds float, ptr %"A", i64 %".200"
  %".202" = load float, ptr %".201", align 4
  %".203" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".202", i32 0
  %"a5" = shufflevector <16 x float> %".203", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".205" = load <16 x float>, ptr %"c5_0"
  %".206" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a5", <16 x float> %"b0", <16 x float> %".205")
  store <16 x float> %".206", ptr %"c5_0"
  %".208" = mul i64 %"i0", 128
  %".209" = add i64 %".208", %"k"
  %".210" = add i64 %".209", 768
  %".211" = getelementptr inbounds float, ptr %"A", i64 %".210"
  %".212" = load float, ptr %".211", align 4
  %".213" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".212", i32 0
  %"a6" = shufflevector <16 x float> %".213", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".215" = load <16 x float>, ptr %"c6_0"
  %".216" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a6", <16 x float> %"b0", <16 x float> %".215")
  store <16 x float> %".216", ptr %"c6_0"
  %".218" = mul i64 %"i0", 128
  %".219" = add i64 %".218", %"k"
  %".220" = add i64 %".219", 896
  %".221" = getelementptr inbounds float, ptr %"A", i64 %".220"
  %".222" = load float, ptr %".221", align 4
  %".223" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".222", i32 0
  %"a7" = shufflevector <16 x float> %".223", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".225" = load <16 x float>, ptr %"c7_0"
  %".226" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a7", <16 x float> %"b0", <16 x float> %".225")
  store <16 x float> %".226", ptr %"c7_0"
  %".228" = mul i64 %"i0", 128
  %".229" = add i64 %".228", %"k"
  %".230" = add i64 %".229", 1024
  %".231" = getelementptr inbounds float, ptr %"A", i64 %".230"
  %".232" = load float, ptr %".231", align 4
  %".233" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".232", i32 0
  %"a8" = shufflevector <16 x float> %".233", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".235" = load <16 x float>, ptr %"c8_0"
  %".236" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a8", <16 x float> %"b0", <16 x float> %".235")
  store <16 x float> %".236", ptr %"c8_0"
  %".238" = mul i64 %"i0", 128
  %".239" = add i64 %".238", %"k"
  %".240" = add i64 %".239", 1152
  %".241" = getelementptr inbounds float, ptr %"A", i64 %".240"
  %".242" = load float, ptr %".241", align 4
  %".243" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".242", i32 0
  %"a9" = shufflevector <16 x float> %".243", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".245" = load <16 x float>, ptr %"c9_0"
  %".246" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a9", <16 x float> %"b0", <16 x float> %".245")
  store <16 x float> %".246", ptr %"c9_0"
  %".248" = mul i64 %"i0", 128
  %".249" = add i64 %".248", %"k"
  %".250" = add i64 %".249", 1280
  %".251" = getelementptr inbounds float, ptr %"A", i64 %".250"
  %".252" = load float, ptr %".251", align 4
  %".253" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".252", i32 0
  %"a10" = shufflevector <16 x float> %".253", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".255" = load <16 x float>, ptr %"c10_0"
  %".256" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a10", <16 x float> %"b0", <16 x float> %".255")
  store <16 x float> %".256", ptr %"c10_0"
  %".258" = mul i64 %"i0", 128
  %".259" = add i64 %".258", %"k"
  %".260" = add i64 %".259", 1408
  %".261" = getelementptr inbounds float, ptr %"A", i64 %".260"
  %".262" = load float, ptr %".261", align 4
  %".263" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".262", i32 0
  %"a11" = shufflevector <16 x float> %".263", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".265" = load <16 x float>, ptr %"c11_0"
  %".266" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a11", <16 x float> %"b0", <16 x float> %".265")
  store <16 x float> %".266", ptr %"c11_0"
  %".268" = mul i64 %"i0", 128
  %".269" = add i64 %".268", %"k"
  %".270" = add i64 %".269", 1536
  %".271" = getelementptr inbounds float, ptr %"A", i64 %".270"
  %".272" = load float, ptr %".271", align 4
  %".273" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".272", i32 0
  %"a12" = shufflevector <16 x float> %".273", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".275" = load <16 x float>, ptr %"c12_0"
  %".276" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a12", <16 x float> %"b0", <16 x float> %".275")
  store <16 x float> %".276", ptr %"c12_0"
  %".278" = mul i64 %"i0", 128
  %".279" = add i64 %".278", %"k"
  %".280" = add i64 %".279", 1664
  %".281" = getelementptr inbounds float, ptr %"A", i64 %".280"
  %".282" = load float, ptr %".281", align 4
  %".283" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".282", i32 0
  %"a13" = shufflevector <16 x float> %".283", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".285" = load <16 x float>, ptr %"c13_0"
  %".286" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a13", <16 x float> %"b0", <16 x float> %".285")
  store <16 x float> %".286", ptr %"c13_0"
  %".288" = add i64 %"k", 1
  store i64 %".288", ptr %"k.slot"
  br label %"k.head"
k.exit:
  %".291" = load <16 x float>, ptr %"c0_0"
  %".292" = mul i64 %"i0", 16
  %".293" = mul i64 %"p", 16
  %".294" = add i64 %".292", %".293"
  %".295" = getelementptr inbounds float, ptr %"C", i64 %".294"
  %".296" = load <16 x float>, ptr %".295", align 4
  %".297" = fadd <16 x float> %".291", %".296"
  store <16 x float> %".297", ptr %"c0_0"
  %".299" = load <16 x float>, ptr %"c1_0"
  %".300" = mul i64 %"i0", 16
  %".301" = mul i64 %"p", 16
  %".302" = add i64 %".300", %".301"
  %".303" = add i64 %".302", 16
  %".304" = getelementptr inbounds float, ptr %"C", i64 %".303"
  %".305" = load <16 x float>, ptr %".304", align 4
  %".306" = fadd <16 x float> %".299", %".305"
  store <16 x float> %".306", ptr %"c1_0"
  %".308" = load <16 x float>, ptr %"c2_0"
  %".309" = mul i64 %"i0", 16
  %".310" = mul i64 %"p", 16
  %".311" = add i64 %".309", %".310"
  %".312" = add i64 %".311", 32
  %".313" = getelementptr inbounds float, ptr %"C", i64 %".312"
  %".314" = load <16 x float>, ptr %".313", align 4
  %".315" = fadd <16 x float> %".308", %".314"
  store <16 x float> %".315", ptr %"c2_0"
  %".317" = load <16 x float>, ptr %"c3_0"
  %".318" = mul i64 %"i0", 16
  %".319" = mul i64 %"p", 16
  %".320" = add i64 %".318", %".319"
  %".321" = add i64 %".320", 48
  %".322" = getelementptr inbounds float, ptr %"C", i64 %".321"
  %".323" = load <16 x float>, ptr %".322", align 4
  %".324" = fadd <16 x float> %".317", %".323"
  store <16 x float> %".324", ptr %"c3_0"
  %".326" = load <16 x float>, ptr %"c4_0"
  %".327" = mul i64 %"i0", 16
  %".328" = mul i64 %"p", 16
  %".329" = add i64 %".327", %".328"
  %".330" = add i64 %".329", 64
  %".331" = getelementptr inbounds float, ptr %"C", i64 %".330"
  %".332" = load <16 x float>, ptr %".331", align 4
  %".333" = fadd <16 x float> %".326", %".332"
  store <16 x float> %".333", ptr %"c4_0"
  %".335" = load <16 x float>, ptr %"c5_0"
  %".336" = mul i64 %"i0", 16
  %".337" = mul i64 %"p", 16
  %".338" = add i64 %".336", %".337"
  %".339" = add i64 %".338", 80
  %".340" = getelementptr inbounds float, ptr %"C", i64 %".339"
  %".341" = load <16 x float>, ptr %".340", align 4
  %".342" = fadd <16 x float> %".335", %".341"
  store <16 x float> %".342", ptr %"c5_0"
  %".344" = load <16 x float>, ptr %"c6_0"
  %".345" = mul i64 %"i0", 16
  %".346" = mul i64 %"p", 16
  %".347" = add i64 %".345", %".346"
  %".348" = add i64 %".347", 96
  %".349" = getelementptr inbounds float, ptr %"C", i64 %".348"
  %".350" = load <16 x float>, ptr %".349", align 4
  %".351" = fadd <16 x float> %".344", %".350"
  store <16 x float> %".351", ptr %"c6_0"
  %".353" = load <16 x float>, ptr %"c7_0"
  %".354" = mul i64 %"i0", 16
  %".355" = mul i64 %"p", 16
  %".356" = add i64 %".354", %".355"
  %".357" = add i64 %".356", 112
  %".358" = getelementptr inbounds float, ptr %"C", i64 %".357"
  %".359" = load <16 x float>, ptr %".358", align 4
  %".360" = fadd <16 x float> %".353", %".359"
  store <16 x float> %".360", ptr %"c7_0"
  %".362" = load <16 x float>, ptr %"c8_0"
  %".363" = mul i64 %"i0", 16
  %".364" = mul i64 %"p", 16
  %".365" = add i64 %".363", %".364"
  %".366" = add i64 %".365", 128
  %".367" = getelementptr inbounds float, ptr %"C", i64 %".366"
  %".368" = load <16 x float>, ptr %".367", align 4
  %".369" = fadd <16 x float> %".362", %".368"
  store <16 x float> %".369", ptr %"c8_0"
  %".371" = load <16 x float>, ptr %"c9_0"
  %".372" = mul i64 %"i0", 16
  %".373" = mul i64 %"p", 16
  %".374" = add i64 %".372", %".373"
  %".375" = add i64 %".374", 144
  %".376" = getelementptr inbounds float, ptr %"C", i64 %".375"
  %".377" = load <16 x float>, ptr %".376", align 4
  %".378" = fadd <16 x float> %".371", %".377"
  store <16 x float> %".378", ptr %"c9_0"
  %".380" = load <16 x float>, ptr %"c10_0"
  %".381" = mul i64 %"i0", 16
  %".382" = mul i64 %"p", 16
  %".383" = add i64 %".381", %".382"
  %".384" = add i64 %".383", 160
  %".385" = getelementptr inbounds float, ptr %"C", i64 %".384"
  %".386" = load <16 x float>, ptr %".385", align 4
  %".387" = fadd <16 x float> %".380", %".386"
  store <16 x float> %".387", ptr %"c10_0"
  %".389" = load <16 x float>, ptr %"c11_0"
  %".390" = mul i64 %"i0", 16
  %".391" = mul i64 %"p", 16
  %".392" = add i64 %".390", %".391"
  %".393" = add i64 %".392", 176
  %".394" = getelementptr inbounds float, ptr %"C", i64 %".393"
  %".395" = load <16 x float>, ptr %".394", align 4
  %".396" = fadd <16 x float> %".389", %".395"
  store <16 x float> %".396", ptr %"c11_0"
  %".398" = load <16 x float>, ptr %"c12_0"
  %".399" = mul i64 %"i0", 16
  %".400" = mul i64 %"p", 16
  %".401" = add i64 %".399", %".400"
  %".402" = add i64 %".401", 192
  %".403" = getelementptr inbounds float, ptr %"C", i64 %".402"
  %".404" = load <16 x float>, ptr %".403", align 4
  %".405" = fadd <16 x float> %".398", %".404"
  store <16 x float> %".405", ptr %"c12_0"
  %".407" = load <16 x float>, ptr %"c13_0"
  %".408" = mul i64 %"i0", 16
  %".409" = mul i64 %"p", 16
  %".410" = add i64 %".408", %".409"
  %".411" = add i64 %".410", 208
  %".412" = getelementptr inbounds float, ptr %"C", i64 %".411"
  %".413" = load <16 x float>, ptr %".412", align 4
  %".414" = fadd <16 x float> %".407", %".413"
  store <16 x float> %".414", ptr %"c13_0"
  %".416" = load <16 x float>, ptr %"c0_0"
  %".417" = mul i64 %"i0", 16
  %".418" = mul i64 %"p", 16
  %".419" = add i64 %".417", %".418"
  %".420" = getelementptr inbounds float, ptr %"C", i64 %".419"
  store <16 x float> %".416", ptr %".420", align 4
  %".422" = load <16 x float>, ptr %"c1_0"
  %".423" = mul i64 %"i0", 16
  %".424" = mul i64 %"p", 16
  %".425" = add i64 %".423", %".424"
  %".426" = add i64 %".425", 16
  %".427" = getelementptr inbounds float, ptr %"C", i64 %".426"
  store <16 x float> %".422", ptr %".427", align 4
  %".429" = load <16 x float>, ptr %"c2_0"
  %".430" = mul i64 %"i0", 16
  %".431" = mul i64 %"p", 16
  %".432" = add i64 %".430", %".431"
  %".433" = add i64 %".432", 32
  %".434" = getelementptr inbounds float, ptr %"C", i64 %".433"
  store <16 x float> %".429", ptr %".434", align 4
  %".436" = load <16 x float>, ptr %"c3_0"
  %".437" = mul i64 %"i0", 16
  %".438" = mul i64 %"p", 16
  %".439" = add i64 %".437", %".438"
  %".440" = add i64 %".439", 48
  %".441" = getelementptr inbounds float, ptr %"C", i64 %".440"
  store <16 x float> %".436", ptr %".441", align 4
  %".443" = load <16 x float>, ptr %"c4_0"
  %".444" = mul i64 %"i0", 16
  %".445" = mul i64 %"p", 16
  %".446" = add i64 %".444", %".445"
  %".447" = add i64 %".446", 64
  %".448" = getelementptr inbounds float, ptr %"C", i64 %".447"
  store <16 x float> %".443", ptr %".448", align 4
  %".450" = load <16 x float>, ptr %"c5_0"
  %".451" = mul i64 %"i0", 16
  %".452" = mul i64 %"p", 16
  %".453" = add i64 %".451", %".452"
  %".454" = add i64 %".453", 80
  %".455" = getelementptr inbounds float, ptr %"C", i64 %".454"
  store <16 x float> %".450", ptr %".455", align 4
  %".457" = load <16 x float>, ptr %"c6_0"
  %".458" = mul i64 %"i0", 16
  %".459" = mul i64 %"p", 16
  %".460" = add i64 %".458", %".459"
  %".461" = add i64 %".460", 96
  %".462" = getelementptr inbounds float, ptr %"C", i64 %".461"
  store <16 x float> %".457", ptr %".462", align 4
  %".464" = load <16 x float>, ptr %"c7_0"
  %".465" = mul i64 %"i0", 16
  %".466" = mul i64 %"p", 16
  %".467" = add i64 %".465", %".466"
  %".468" = add i64 %".467", 112
  %".469" = getelementptr inbounds float, ptr %"C", i64 %".468"
  store <16 x float> %".464", ptr %".469", align 4
  %".471" = load <16 x float>, ptr %"c8_0"
  %".472" = mul i64 %"i0", 16
  %".473" = mul i64 %"p", 16
  %".474" = add i64 %".472", %".473"
  %".475" = add i64 %".474", 128
  %".476" = getelementptr inbounds float, ptr %"C", i64 %".475"
  store <16 x float> %".471", ptr %".476", align 4
  %".478" = load <16 x float>, ptr %"c9_0"
  %".479" = mul i64 %"i0", 16
  %".480" = mul i64 %"p", 16
  %".481" = add i64 %".479", %".480"
  %".482" = add i64 %".481", 144
  %".483" = getelementptr inbounds float, ptr %"C", i64 %".482"
  store <16 x float> %".478", ptr %".483", align 4
  %".485" = load <16 x float>, ptr %"c10_0"
  %".486" = mul i64 %"i0", 16
  %".487" = mul i64 %"p", 16
  %".488" = add i64 %".486", %".487"
  %".489" = add i64 %".488", 160
  %".490" = getelementptr inbounds float, ptr %"C", i64 %".489"
  store <16 x float> %".485", ptr %".490", align 4
  %".492" = load <16 x float>, ptr %"c11_0"
  %".493" = mul i64 %"i0", 16
  %".494" = mul i64 %"p", 16
  %".495" = add i64 %".493", %".494"
  %".496" = add i64 %".495", 176
  %".497" = getelementptr inbounds float, ptr %"C", i64 %".496"
  store <16 x float> %".492", ptr %".497", align 4
  %".499" = load <16 x float>, ptr %"c12_0"
  %".500" = mul i64 %"i0", 16
  %".501" = mul i64 %"p", 16
  %".502" = add i64 %".500", %".501"
  %".503" = add i64 %".502", 192
  %".504" = getelementptr inbounds float, ptr %"C", i64 %".503"
  store <16 x float> %".499", ptr %".504", align 4
  %".506" = load <16 x float>, ptr %"c13_0"
  %".507" = mul i64 %"i0", 16
  %".508" = mul i64 %"p", 16
  %".509" = add i64 %".507", %".508"
  %".510" = add i64 %".509", 208
  %".511" = getelementptr inbounds float, ptr %"C", i64 %".510"
  store <16 x float> %".506", ptr %".511", align 4
  %".513" = add i64 %"p", 1
  store i64 %".513", ptr %"p.slot"
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

declare void @"llvm.prefetch.p0"(ptr %".1", i32 %".2", i32 %".3", i32 %".4")

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