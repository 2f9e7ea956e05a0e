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
  %".19" = load <16 x float>, ptr %".18", align 4
  store <16 x float> %".19", ptr %"c0_0"
  %".21" = mul i64 %"i0", 16
  %".22" = mul i64 %"p", 16
  %".23" = add i64 %".21", %".22"
  %".24" = add i64 %".23", 16
  %".25" = getelementptr inbounds float, ptr %"C", i64 %".24"
  %".26" = load <16 x float>, ptr %".25", align 4
  store <16 x float> %".26", ptr %"c1_0"
  %".28" = mul i64 %"i0", 16
  %".29" = mul i64 %"p", 16
  %".30" = add i64 %".28", %".29"
  %".31" = add i64 %".30", 32
  %".32" = getelementptr inbounds float, ptr %"C", i64 %".31"
  %".33" = load <16 x float>, ptr %".32", align 4
  store <16 x float> %".33", ptr %"c2_0"
  %".35" = mul i64 %"i0", 16
  %".36" = mul i64 %"p", 16
  %".37" = add i64 %".35", %".36"
  %".38" = add i64 %".37", 48
  %".39" = getelementptr inbounds float, ptr %"C", i64 %".38"
  %".40" = load <16 x float>, ptr %".39", align 4
  store <16 x float> %".40", ptr %"c3_0"
  %".42" = mul i64 %"i0", 16
  %".43" = mul i64 %"p", 16
  %".44" = add i64 %".42", %".43"
  %".45" = add i64 %".44", 64
  %".46" = getelementptr inbounds float, ptr %"C", i64 %".45"
  %".47" = load <16 x float>, ptr %".46", align 4
  store <16 x float> %".47", ptr %"c4_0"
  %".49" = mul i64 %"i0", 16
  %".50" = mul i64 %"p", 16
  %".51" = add i64 %".49", %".50"
  %".52" = add i64 %".51", 80
  %".53" = getelementptr inbounds float, ptr %"C", i64 %".52"
  %".54" = load <16 x float>, ptr %".53", align 4
  store <16 x float> %".54", ptr %"c5_0"
  %".56" = mul i64 %"i0", 16
  %".57" = mul i64 %"p", 16
  %".58" = add i64 %".56", %".57"
  %".59" = add i64 %".58", 96
  %".60" = getelementptr inbounds float, ptr %"C", i64 %".59"
  %".61" = load <16 x float>, ptr %".60", align 4
  store <16 x float> %".61", ptr %"c6_0"
  %".63" = mul i64 %"i0", 16
  %".64" = mul i64 %"p", 16
  %".65" = add i64 %".63", %".64"
  %".66" = add i64 %".65", 112
  %".67" = getelementptr inbounds float, ptr %"C", i64 %".66"
  %".68" = load <16 x float>, ptr %".67", align 4
  store <16 x float> %".68", ptr %"c7_0"
  %".70" = mul i64 %"i0", 16
  %".71" = mul i64 %"p", 16
  %".72" = add i64 %".70", %".71"
  %".73" = add i64 %".72", 128
  %".74" = getelementptr inbounds float, ptr %"C", i64 %".73"
  %".75" = load <16 x float>, ptr %".74", align 4
  store <16 x float> %".75", ptr %"c8_0"
  %".77" = mul i64 %"i0", 16
  %".78" = mul i64 %"p", 16
  %".79" = add i64 %".77", %".78"
  %".80" = add i64 %".79", 144
  %".81" = getelementptr inbounds float, ptr %"C", i64 %".80"
  %".82" = load <16 x float>, ptr %".81", align 4
  store <16 x float> %".82", ptr %"c9_0"
  %".84" = mul i64 %"i0", 16
  %".85" = mul i64 %"p", 16
  %".86" = add i64 %".84", %".85"
  %".87" = add i64 %".86", 160
  %".88" = getelementptr inbounds float, ptr %"C", i64 %".87"
  %".89" = load <16 x float>, ptr %".88", align 4
  store <16 x float> %".89", ptr %"c10_0"
  %".91" = mul i64 %"i0", 16
  %".92" = mul i64 %"p", 16
  %".93" = add i64 %".91", %".92"
  %".94" = add i64 %".93", 176
  %".95" = getelementptr inbounds float, ptr %"C", i64 %".94"
  %".96" = load <16 x float>, ptr %".95", align 4
  store <16 x float> %".96", ptr %"c11_0"
  %".98" = mul i64 %"i0", 16
  %".99" = mul i64 %"p", 16
  %".100" = add i64 %".98", %".99"
  %".101" = add i64 %".100", 192
  %".102" = getelementptr inbounds float, ptr %"C", i64 %".101"
  %".103" = load <16 x float>, ptr %".102", align 4
  store <16 x float> %".103", ptr %"c12_0"
  %".105" = mul i64 %"i0", 16
  %".106" = mul i64 %"p", 16
  %".107" = add i64 %".105", %".106"
  %".108" = add i64 %".107", 208
  %".109" = getelementptr inbounds float, ptr %"C", i64 %".108"
  %".110" = load <16 x float>, ptr %".109", align 4
  store <16 x float> %".110", ptr %"c13_0"
  store i64 0, ptr %"k.slot"
  br label %"k.head"
p.exit:
  %".363" = add i64 %"i0", 14
  store i64 %".363", ptr %"i0.slot"
  br label %"i0.head"
k.head:
  %"k" = load i64, ptr %"k.slot"
  %".114" = icmp slt i64 %"k", 8
  br i1 %".114", label %"k.body", label %"k.exit"
k.body:
  %".116" = mul i64 %"k", 16
  %".117" = mul i64 %"p", 16
  %".118" = add i64 %".116", %".117"
  %".119" = getelementptr inbounds float, ptr %"B", i64 %".118"
  %"b0" = load <16 x float>, ptr %".119", align 4
  %".121" = mul i64 %"i0", 128
  %".122" = add i64 %".121", %"k"
  %".123" = getelementptr inbounds float, ptr %"A", i64 %".122"
  %".124" = load float, ptr %".123", align 4
  %".125" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".124", i32 0
  %"a0" = shufflevector <16 x float> %".125", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".127" = load <16 x float>, ptr %"c0_0"
  %".128" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a0", <16 x float> %"b0", <16 x float> %".127")
  store <16 x float> %".128", ptr %"c0_0"
  %".130" = mul i64 %"i0", 128
  %".131" = add i64 %".130", %"k"
  %".132" = add i64 %".131", 128
  %".133" = getelementptr inbounds float, ptr %"A", i64 %".132"
  %".134" = load float, ptr %".133", align 4
  %".135" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".134", i32 0
  %"a1" = shufflevector <16 x float> %".135", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".137" = load <16 x float>, ptr %"c1_0"
  %".138" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a1", <16 x float> %"b0", <16 x float> %".137")
  store <16 x float> %".138", ptr %"c1_0"
  %".140" = mul i64 %"i0", 128
  %".141" = add i64 %".140", %"k"
  %".142" = add i64 %".141", 256
  %".143" = getelementptr inbounds float, ptr %"A", i64 %".142"
  %".144" = load float, ptr %".143", align 4
  %".145" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".144", i32 0
  %"a2" = shufflevector <16 x float> %".145", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".147" = load <16 x float>, ptr %"c2_0"
  %".148" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a2", <16 x float> %"b0", <16 x float> %".147")
  store <16 x float> %".148", ptr %"c2_0"
  %".150" = mul i64 %"i0", 128
  %".151" = add i64 %".150", %"k"
  %".152" = add i64 %".151", 384
  %".153" = getelementptr inbounds float, ptr %"A", i64 %".152"
  %".154" = load float, ptr %".153", align 4
  %".155" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".154", i32 0
  %"a3" = shufflevector <16 x float> %".155", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".157" = load <16 x float>, ptr %"c3_0"
  %".158" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a3", <16 x float> %"b0", <16 x float> %".157")
  store <16 x float> %".158", ptr %"c3_0"
  %".160" = mul i64 %"i0", 128
  %".161" = add i64 %".160", %"k"
  %".162" = add i64 %".161", 512
  %".163" = getelementptr inbounds float, ptr %"A", i64 %".162"
  %".164" = load float, ptr %".163", align 4
  %".165" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".164", i32 0
  %"a4" = shufflevector <16 x float> %".165", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".167" = load <16 x float>, ptr %"c4_0"
  %".168" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a4", <16 x float> %"b0", <16 x float> %".167")
  store <16 x float> %".168", ptr %"c4_0"
  %".170" = mul i64 %"i0", 128
  %".171" = add i64 %".170", %"k"
  %".172" = add i64 %".171", 640
  %".173" = getelementptr inbounds float, ptr %"A", i64 %".172"
  %".174" = load float, ptr %".173", align 4
  %".175" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".174", i32 0
  %"a5" = shufflevector <16 x float> %".175", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".177" = load <16 x float>, ptr %"c5_0"
  %".178" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a5", <16 x float> %"b0", <16 x float> %".177")
  store <16 x float> %".178", ptr %"c5_0"
  %".180" = mul i64 %"i0", 128
  %".181" = add i64 %".180", %"k"
  %".182" = add i64 %".181", 768
  %".183" = getelementptr inbounds float, ptr %"A", i64 %".182"
  %".184" = load float, ptr %".183", align 4
  %".185" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".184", i32 0
  %"a6" = shufflevector <16 x float> %".185", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".187" = load <16 x float>, ptr %"c6_0"
  %".188" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a6", <16 x float> %"b0", <16 x float> %".187")
  store <16 x float> %".188", ptr %"c6_0"
  %".190" = mul i64 %"i0", 128
  %".191" = add i64 %".190", %"k"
  %".192" = add i64 %".191", 896
  %".193" = getelementptr inbounds float, ptr %"A", i64 %".192"
  %".194" = load float, ptr %".193", align 4
  %".195" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".194", i32 0
  %"a7" = shufflevector <16 x float> %".195", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".197" = load <16 x float>, ptr %"c7_0"
  %".198" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a7", <16 x float> %"b0", <16 x float> %".197")
  store <16 x float> %".198", ptr %"c7_0"
  %".200" = mul i64 %"i0", 128
  %".201" = add i64 %".200", %"k"
  %".202" = add i64 %".201", 1024
  %".203" = getelementptr inbounds float, ptr %"A", i64 %".202"
  %".204" = load float, ptr %".203", align 4
  %".205" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".204", i32 0
  %"a8" = shufflevector <16 x float> %".205", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".207" = load <16 x float>, ptr %"c8_0"
  %".208" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a8", <16 x float> %"b0", <16 x float> %".207")
  store <16 x float> %".208", ptr %"c8_0"
  %".210" = mul i64 %"i0", 128
  %".211" = add i64 %".210", %"k"
  %".212" = add i64 %".211", 1152
  %".213" = getelementptr inbounds float, ptr %"A", i64 %".212"
  %".214" = load float, ptr %".213", align 4
  %".215" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".214", i32 0
  %"a9" = shufflevector <16 x float> %".215", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".217" = load <16 x float>, ptr %"c9_0"
  %".218" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a9", <16 x float> %"b0", <16 x float> %".217")
  store <16 x float> %".218", ptr %"c9_0"
  %".220" = mul i64 %"i0", 128
  %".221" = add i64 %".220", %"k"
  %".222" = add i64 %".221", 1280
  %".223" = getelementptr inbounds float, ptr %"A", i64 %".222"
  %".224" = load float, ptr %".223", align 4
  %".225" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".224", i32 0
  %"a10" = shufflevector <16 x float> %".225", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".227" = load <16 x float>, ptr %"c10_0"
  %".228" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a10", <16 x float> %"b0", <16 x float> %".227")
  store <16 x float> %".228", ptr %"c10_0"
  %".230" = mul i64 %"i0", 128
  %".231" = add i64 %".230", %"k"
  %".232" = add i64 %".231", 1408
  %".233" = getelementptr inbounds float, ptr %"A", i64 %".232"
  %".234" = load float, ptr %".233", align 4
  %".235" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".234", i32 0
  %"a11" = shufflevector <16 x float> %".235", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".237" = load <16 x float>, ptr %"c11_0"
  %".238" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a11", <16 x float> %"b0", <16 x float> %".237")
  store <16 x float> %".238", ptr %"c11_0"
  %".240" = mul i64 %"i0", 128
  %".241" = add i64 %".240", %"k"
  %".242" = add i64 %".241", 1536
  %".243" = getelementptr inbounds float, ptr %"A", i64 %".242"
  %".244" = load float, ptr %".243", align 4
  %".245" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".244", i32 0
  %"a12" = shufflevector <16 x float> %".245", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".247" = load <16 x float>, ptr %"c12_0"
  %".248" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a12", <16 x float> %"b0", <16 x float> %".247")
  store <16 x float> %".248", ptr %"c12_0"
  %".250" = mul i64 %"i0", 128
  %".251" = add i64 %".250", %"k"
  %".252" = add i64 %".251", 1664
  %".253" = getelementptr inbounds float, ptr %"A", i64 %".252"
  %".254" = load float, ptr %".253", align 4
  %".255" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".254", i32 0
  %"a13" = shufflevector <16 x float> %".255", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".257" = load <16 x float>, ptr %"c13_0"
  %".258" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a13", <16 x float> %"b0", <16 x float> %".257")
  store <16 x float> %".258", ptr %"c13_0"
  %".260" = add i64 %"k", 1
  store i64 %".260", ptr %"k.slot"
  br label %"k.head"
k.exit:
  %".263" = load <16 x float>, ptr %"c0_0"
  %".264" = mul i64 %"i0", 16
  %".265" = mul i64 %"p", 16
  %".266" = add i64 %".264", %".265"
  %".267" = getelementptr inbounds float, ptr %"C", i64 %".266"
  store <16 x float> %".263", ptr %".267", align 4
  %".269" = load <16 x float>, ptr %"c1_0"
  %".270" = mul i64 %"i0", 16
  %".271" = mul i64 %"p", 16
  %".272" = add i64 %".270", %".271"
  %".273" = add i64 %".272", 16
  %".274" = getelementptr inbounds float, ptr %"C", i64 %".273"
  store <16 x float> %".269", ptr %".274", align 4
  %".276" = load <16 x float>, ptr %"c2_0"
  %".277" = mul i64 %"i0", 16
  %".278" = mul i64 %"p", 16
  %".279" = add i64 %".277", %".278"
  %".280" = add i64 %".279", 32
  %".281" = getelementptr inbounds float, ptr %"C", i64 %".280"
  store <16 x float> %".276", ptr %".281", align 4
  %".283" = load <16 x float>, ptr %"c3_0"
  %".284" = mul i64 %"i0", 16
  %".285" = mul i64 %"p", 16
  %".286" = add i64 %".284", %".285"
  %".287" = add i64 %".286", 48
  %".288" = getelementptr inbounds float, ptr %"C", i64 %".287"
  store <16 x float> %".283", ptr %".288", align 4
  %".290" = load <16 x float>, ptr %"c4_0"
  %".291" = mul i64 %"i0", 16
  %".292" = mul i64 %"p", 16
  %".293" = add i64 %".291", %".292"
  %".294" = add i64 %".293", 64
  %".295" = getelementptr inbounds float, ptr %"C", i64 %".294"
  store <16 x float> %".290", ptr %".295", align 4
  %".297" = load <16 x float>, ptr %"c5_0"
  %".298" = mul i64 %"i0", 16
  %".299" = mul i64 %"p", 16
  %".300" = add i64 %".298", %".299"
  %".301" = add i64 %".300", 80
  %".302" = getelementptr inbounds float, ptr %"C", i64 %".301"
  store <16 x float> %".297", ptr %".302", align 4
  %".304" = load <16 x float>, ptr %"c6_0"
  %".305" = mul i64 %"i0", 16
  %".306" = mul i64 %"p", 16
  %".307" = add i64 %".305", %".306"
  %".308" = add i64 %".307", 96
  %".309" = getelementptr inbounds float, ptr %"C", i64 %".308"
  store <16 x float> %".304", ptr %".309", align 4
  %".311" = load <16 x float>, ptr %"c7_0"
  %".312" = mul i64 %"i0", 16
  %".313" = mul i64 %"p", 16
  %".314" = add i64 %".312", %".313"
  %".315" = add i64 %".314", 112
  %".316" = getelementptr inbounds float, ptr %"C", i64 %".315"
  store <16 x float> %".311", ptr %".316", align 4
  %".318" = load <16 x float>, ptr %"c8_0"
  %".319" = mul i64 %"i0", 16
  %".320" = mul i64 %"p", 16
  %".321" = add i64 %".319", %".320"
  %".322" = add i64 %".321", 128
  %".323" = getelementptr inbounds float, ptr %"C", i64 %".322"
  store <16 x float> %".318", ptr %".323", align 4
  %".325" = load <16 x float>, ptr %"c9_0"
  %".326" = mul i64 %"i0", 16
  %".327" = mul i64 %"p", 16
  %".328" = add i64 %".326", %".327"
  %".329" = add i64 %".328", 144
  %".330" = getelementptr inbounds float, ptr %"C", i64 %".329"
  store <16 x float> %".325", ptr %".330", align 4
  %".332" = load <16 x float>, ptr %"c10_0"
  %".333" = mul i64 %"i0", 16
  %".334" = mul i64 %"p", 16
  %".335" = add i64 %".333", %".334"
  %".336" = add i64 %".335", 160
  %".337" = getelementptr inbounds float, ptr %"C", i64 %".336"
  store <16 x float> %".332", ptr %".337", align 4
  %".339" = load <16 x float>, ptr %"c11_0"
  %".340" = mul i64 %"i0", 16
  %".341" = mul i64 %"p", 16
  %".342" = add i64 %".340", %".341"
  %".343" = add i64 %".342", 176
  %".344" = getelementptr inbounds float, ptr %"C", i64 %".343"
  store <16 x float> %".339", ptr %".344", align 4
  %".346" = load <16 x float>, ptr %"c12_0"
  %".347" = mul i64 %"i0", 16
  %".348" = mul i64 %"p", 16
  %".349" = add i64 %".347", %".348"
  %".350" = add i64 %".349", 192
  %".351" = getelementptr inbounds float, ptr %"C", i64 %".350"
  store <16 x float> %".346", ptr %".351", align 4
  %".353" = load <16 x float>, ptr %"c13_0"
  %".354" = mul i64 %"i0", 16
  %".355" = mul i64 %"p", 16
  %".356" = add i64 %".354", %".355"
  %".357" = add i64 %".356", 208
  %".358" = getelementptr inbounds float, ptr %"C", i64 %".357"
  store <16 x float> %".353", ptr %".358", align 4
  %".360" = add i64 %"p", 1
  store i64 %".360", ptr %"p.slot"
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