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
  %"k.slot" = alloca i64
  %"p_1.slot" = alloca i64
  %"c0_0_1" = alloca <16 x float>
  %"c1_0_1" = alloca <16 x float>
  %"c2_0_1" = alloca <16 x float>
  %"c3_0_1" = alloca <16 x float>
  %"c4_0_1" = alloca <16 x float>
  %"c5_0_1" = alloca <16 x float>
  %"k_1.slot" = alloca i64
  br label %"start"
start:
  ; micro-kernel C += A B: 14x16x8 fp32, A strides (128, 1), B strides (16, 1), C row stride 16; 8x16 register block
  store i64 0, ptr %"i0.slot"
  br label %"i0.head"
i0.head:
  %"i0" = load i64, ptr %"i0.slot"
  %".9" = icmp slt i64 %"i0", 8
  br i1 %".9", label %"i0.body", label %"i0.exit"
i0.body:
  store i64 0, ptr %"p.slot"
  br label %"p.head"
i0.exit:
  store i64 0, ptr %"p_1.slot"
  br label %"p_1.head"
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
  store i64 0, ptr %"k.slot"
  br label %"k.head"
p.exit:
  %".219" = add i64 %"i0", 8
  store i64 %".219", ptr %"i0.slot"
  br label %"i0.head"
k.head:
  %"k" = load i64, ptr %"k.slot"
  %".72" = icmp slt i64 %"k", 8
  br i1 %".72", label %"k.body", label %"k.exit"
k.body:
  %".74" = mul i64 %"k", 16
  %".75" = mul i64 %"p", 16
  %".76" = add i64 %".74", %".75"
  %".77" = getelementptr inbounds float, ptr %"B", i64 %".76"
  %"b0" = load <16 x float>, ptr %".77", align 4
  %".79" = mul i64 %"i0", 128
  %".80" = add i64 %".79", %"k"
  %".81" = getelementptr inbounds float, ptr %"A", i64 %".80"
  %".82" = load float, ptr %".81", align 4
  %".83" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".82", i32 0
  %"a0" = shufflevector <16 x float> %".83", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".85" = load <16 x float>, ptr %"c0_0"
  %".86" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a0", <16 x float> %"b0", <16 x float> %".85")
  store <16 x float> %".86", ptr %"c0_0"
  %".88" = mul i64 %"i0", 128
  %".89" = add i64 %".88", %"k"
  %".90" = add i64 %".89", 128
  %".91" = getelementptr inbounds float, ptr %"A", i64 %".90"
  %".92" = load float, ptr %".91", align 4
  %".93" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".92", i32 0
  %"a1" = shufflevector <16 x float> %".93", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".95" = load <16 x float>, ptr %"c1_0"
  %".96" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a1", <16 x float> %"b0", <16 x float> %".95")
  store <16 x float> %".96", ptr %"c1_0"
  %".98" = mul i64 %"i0", 128
  %".99" = add i64 %".98", %"k"
  %".100" = add i64 %".99", 256
  %".101" = getelementptr inbounds float, ptr %"A", i64 %".100"
  %".102" = load float, ptr %".101", align 4
  %".103" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".102", i32 0
  %"a2" = shufflevector <16 x float> %".103", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".105" = load <16 x float>, ptr %"c2_0"
  %".106" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a2", <16 x float> %"b0", <16 x float> %".105")
  store <16 x float> %".106", ptr %"c2_0"
  %".108" = mul i64 %"i0", 128
  %".109" = add i64 %".108", %"k"
  %".110" = add i64 %".109", 384
  %".111" = getelementptr inbounds float, ptr %"A", i64 %".110"
  %".112" = load float, ptr %".111", align 4
  %".113" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".112", i32 0
  %"a3" = shufflevector <16 x float> %".113", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".115" = load <16 x float>, ptr %"c3_0"
  %".116" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a3", <16 x float> %"b0", <16 x float> %".115")
  store <16 x float> %".116", ptr %"c3_0"
  %".118" = mul i64 %"i0", 128
  %".119" = add i64 %".118", %"k"
  %".120" = add i64 %".119", 512
  %".121" = getelementptr inbounds float, ptr %"A", i64 %".120"
  %".122" = load float, ptr %".121", align 4
  %".123" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".122", i32 0
  %"a4" = shufflevector <16 x float> %".123", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".125" = load <16 x float>, ptr %"c4_0"
  %".126" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a4", <16 x float> %"b0", <16 x float> %".125")
  store <16 x float> %".126", ptr %"c4_0"
  %".128" = mul i64 %"i0", 128
  %".129" = add i64 %".128", %"k"
  %".130" = add i64 %".129", 640
  %".131" = getelementptr inbounds float, ptr %"A", i64 %".130"
  %".132" = load float, ptr %".131", align 4
  %".133" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".132", i32 0
  %"a5" = shufflevector <16 x float> %".133", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".135" = load <16 x float>, ptr %"c5_0"
  %".136" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a5", <16 x float> %"b0", <16 x float> %".135")
  store <16 x float> %".136", ptr %"c5_0"
  %".138" = mul i64 %"i0", 128
  %".139" = add i64 %".138", %"k"
  %".140" = add i64 %".139", 768
  %".141" = getelementptr inbounds float, ptr %"A", i64 %".140"
  %".142" = load float, ptr %".141", align 4
  %".143" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".142", i32 0
  %"a6" = shufflevector <16 x float> %".143", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".145" = load <16 x float>, ptr %"c6_0"
  %".146" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a6", <16 x float> %"b0", <16 x float> %".145")
  store <16 x float> %".146", ptr %"c6_0"
  %".148" = mul i64 %"i0", 128
  %".149" = add i64 %".148", %"k"
  %".150" = add i64 %".149", 896
  %".151" = getelementptr inbounds float, ptr %"A", i64 %".150"
  %".152" = load float, ptr %".151", align 4
  %".153" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".152", i32 0
  %"a7" = shufflevector <16 x float> %".153", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".155" = load <16 x float>, ptr %"c7_0"
  %".156" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a7", <16 x float> %"b0", <16 x float> %".155")
  store <16 x float> %".156", ptr %"c7_0"
  %".158" = add i64 %"k", 1
  store i64 %".158", ptr %"k.slot"
  br label %"k.head"
k.exit:
  %".161" = load <16 x float>, ptr %"c0_0"
  %".162" = mul i64 %"i0", 16
  %".163" = mul i64 %"p", 16
  %".164" = add i64 %".162", %".163"
  %".165" = getelementptr inbounds float, ptr %"C", i64 %".164"
  store <16 x float> %".161", ptr %".165", align 4
  %".167" = load <16 x float>, ptr %"c1_0"
  %".168" = mul i64 %"i0", 16
  %".169" = mul i64 %"p", 16
  %".170" = add i64 %".168", %".169"
  %".171" = add i64 %".170", 16
  %".172" = getelementptr inbounds float, ptr %"C", i64 %".171"
  store <16 x float> %".167", ptr %".172", align 4
  %".174" = load <16 x float>, ptr %"c2_0"
  %".175" = mul i64 %"i0", 16
  %".176" = mul i64 %"p", 16
  %".177" = add i64 %".175", %".176"
  %".178" = add i64 %".177", 32
  %".179" = getelementptr inbounds float, ptr %"C", i64 %".178"
  store <16 x float> %".174", ptr %".179", align 4
  %".181" = load <16 x float>, ptr %"c3_0"
  %".182" = mul i64 %"i0", 16
  %".183" = mul i64 %"p", 16
  %".184" = add i64 %".182", %".183"
  %".185" = add i64 %".184", 48
  %".186" = getelementptr inbounds float, ptr %"C", i64 %".185"
  store <16 x float> %".181", ptr %".186", align 4
  %".188" = load <16 x float>, ptr %"c4_0"
  %".189" = mul i64 %"i0", 16
  %".190" = mul i64 %"p", 16
  %".191" = add i64 %".189", %".190"
  %".192" = add i64 %".191", 64
  %".193" = getelementptr inbounds float, ptr %"C", i64 %".192"
  store <16 x float> %".188", ptr %".193", align 4
  %".195" = load <16 x float>, ptr %"c5_0"
  %".196" = mul i64 %"i0", 16
  %".197" = mul i64 %"p", 16
  %".198" = add i64 %".196", %".197"
  %".199" = add i64 %".198", 80
  %".200" = getelementptr inbounds float, ptr %"C", i64 %".199"
  store <16 x float> %".195", ptr %".200", align 4
  %".202" = load <16 x float>, ptr %"c6_0"
  %".203" = mul i64 %"i0", 16
  %".204" = mul i64 %"p", 16
  %".205" = add i64 %".203", %".204"
  %".206" = add i64 %".205", 96
  %".207" = getelementptr inbounds float, ptr %"C", i64 %".206"
  store <16 x float> %".202", ptr %".207", align 4
  %".209" = load <16 x float>, ptr %"c7_0"
  %".210" = mul i64 %"i0", 16
  %".211" = mul i64 %"p", 16
  %".212" = add i64 %".210", %".211"
  %".213" = add i64 %".212", 112
  %".214" = getelementptr inbounds float, ptr %"C", i64 %".213"
  store <16 x float> %".209", ptr %".214", align 4
  %".216" = add i64 %"p", 1
  store i64 %".216", ptr %"p.slot"
  br label %"p.head"
p_1.head:
  %"p_1" = load i64, ptr %"p_1.slot"
  %".224" = icmp slt i64 %"p_1", 1
  br i1 %".224", label %"p_1.body", label %"p_1.exit"
p_1.body:
  %".226" = mul i64 %"p_1", 16
  %".227" = add i64 %".226", 128
  %".228" = getelementptr inbounds float, ptr %"C", i64 %".227"
  %".229" = load <16 x float>, ptr %".228", align 4
  store <16 x float> %".229", ptr %"c0_0_1"
  %".231" = mul i64 %"p_1", 16
  %".232" = add i64 %".231", 144
  %".233" = getelementptr inbounds float, ptr %"C", i64 %".232"
  %".234" = load <16 x float>, ptr %".233", align 4
  store <16 x float> %".234", ptr %"c1_0_1"
  %".236" = mul i64 %"p_1", 16
  %".237" = add i64 %".236", 160
  %".238" = getelementptr inbounds float, ptr %"C", i64 %".237"
  %".239" = load <16 x float>, ptr %".238", align 4
  store <16 x float> %".239", ptr %"c2_0_1"
  %".241" = mul i64 %"p_1", 16
  %".242" = add i64 %".241", 176
  %".243" = getelementptr inbounds float, ptr %"C", i64 %".242"
  %".244" = load <16 x float>, ptr %".243", align 4
  store <16 x float> %".244", ptr %"c3_0_1"
  %".246" = mul i64 %"p_1", 16
  %".247" = add i64 %".246", 192
  %".248" = getelementptr inbounds float, ptr %"C", i64 %".247"
  %".249" = load <16 x float>, ptr %".248", align 4
  store <16 x float> %".249", ptr %"c4_0_1"
  %".251" = mul i64 %"p_1", 16
  %".252" = add i64 %".251", 208
  %".253" = getelementptr inbounds float, ptr %"C", i64 %".252"
  %".254" = load <16 x float>, ptr %".253", align 4
  store <16 x float> %".254", ptr %"c5_0_1"
  store i64 0, ptr %"k_1.slot"
  br label %"k_1.head"
p_1.exit:
  ret void
k_1.head:
  %"k_1" = load i64, ptr %"k_1.slot"
  %".258" = icmp slt i64 %"k_1", 8
  br i1 %".258", label %"k_1.body", label %"k_1.exit"
k_1.body:
  %".260" = mul i64 %"k_1", 16
  %".261" = mul i64 %"p_1", 16
  %".262" = add i64 %".260", %".261"
  %".263" = getelementptr inbounds float, ptr %"B", i64 %".262"
  %"b0_1" = load <16 x float>, ptr %".263", align 4
  %".265" = add i64 %"k_1", 1024
  %".266" = getelementptr inbounds float, ptr %"A", i64 %".265"
  %".267" = load float, ptr %".266", align 4
  %".268" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".267", i32 0
  %"a0_1" = shufflevector <16 x float> %".268", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".270" = load <16 x float>, ptr %"c0_0_1"
  %".271" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a0_1", <16 x float> %"b0_1", <16 x float> %".270")
  store <16 x float> %".271", ptr %"c0_0_1"
  %".273" = add i64 %"k_1", 1152
  %".274" = getelementptr inbounds float, ptr %"A", i64 %".273"
  %".275" = load float, ptr %".274", align 4
  %".276" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".275", i32 0
  %"a1_1" = shufflevector <16 x float> %".276", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".278" = load <16 x float>, ptr %"c1_0_1"
  %".279" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a1_1", <16 x float> %"b0_1", <16 x float> %".278")
  store <16 x float> %".279", ptr %"c1_0_1"
  %".281" = add i64 %"k_1", 1280
  %".282" = getelementptr inbounds float, ptr %"A", i64 %".281"
  %".283" = load float, ptr %".282", align 4
  %".284" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".283", i32 0
  %"a2_1" = shufflevector <16 x float> %".284", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".286" = load <16 x float>, ptr %"c2_0_1"
  %".287" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a2_1", <16 x float> %"b0_1", <16 x float> %".286")
  store <16 x float> %".287", ptr %"c2_0_1"
  %".289" = add i64 %"k_1", 1408
  %".290" = getelementptr inbounds float, ptr %"A", i64 %".289"
  %".291" = load float, ptr %".290", align 4
  %".292" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".291", i32 0
  %"a3_1" = shufflevector <16 x float> %".292", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".294" = load <16 x float>, ptr %"c3_0_1"
  %".295" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a3_1", <16 x float> %"b0_1", <16 x float> %".294")
  store <16 x float> %".295", ptr %"c3_0_1"
  %".297" = add i64 %"k_1", 1536
  %".298" = getelementptr inbounds float, ptr %"A", i64 %".297"
  %".299" = load float, ptr %".298", align 4
  %".300" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".299", i32 0
  %"a4_1" = shufflevector <16 x float> %".300", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".302" = load <16 x float>, ptr %"c4_0_1"
  %".303" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a4_1", <16 x float> %"b0_1", <16 x float> %".302")
  store <16 x float> %".303", ptr %"c4_0_1"
  %".305" = add i64 %"k_1", 1664
  %".306" = getelementptr inbounds float, ptr %"A", i64 %".305"
  %".307" = load float, ptr %".306", align 4
  %".308" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".307", i32 0
  %"a5_1" = shufflevector <16 x float> %".308", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".310" = load <16 x float>, ptr %"c5_0_1"
  %".311" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a5_1", <16 x float> %"b0_1", <16 x float> %".310")
  store <16 x float> %".311", ptr %"c5_0_1"
  %".313" = add i64 %"k_1", 1
  store i64 %".313", ptr %"k_1.slot"
  br label %"k_1.head"
k_1.exit:
  %".316" = load <16 x float>, ptr %"c0_0_1"
  %".317" = mul i64 %"p_1", 16
  %".318" = add i64 %".317", 128
  %".319" = getelementptr inbounds float, ptr %"C", i64 %".318"
  store <16 x float> %".316", ptr %".319", align 4
  %".321" = load <16 x float>, ptr %"c1_0_1"
  %".322" = mul i64 %"p_1", 16
  %".323" = add i64 %".322", 144
  %".324" = getelementptr inbounds float, ptr %"C", i64 %".323"
  store <16 x float> %".321", ptr %".324", align 4
  %".326" = load <16 x float>, ptr %"c2_0_1"
  %".327" = mul i64 %"p_1", 16
  %".328" = add i64 %".327", 160
  %".329" = getelementptr inbounds float, ptr %"C", i64 %".328"
  store <16 x float> %".326", ptr %".329", align 4
  %".331" = load <16 x float>, ptr %"c3_0_1"
  %".332" = mul i64 %"p_1", 16
  %".333" = add i64 %".332", 176
  %".334" = getelementptr inbounds float, ptr %"C", i64 %".333"
  store <16 x float> %".331", ptr %".334", align 4
  %".336" = load <16 x float>, ptr %"c4_0_1"
  %".337" = mul i64 %"p_1", 16
  %".338" = add i64 %".337", 192
  %".339" = getelementptr inbounds float, ptr %"C", i64 %".338"
  store <16 x float> %".336", ptr %".339", align 4
  %".341" = load <16 x float>, ptr %"c5_0_1"
  %".342" = mul i64 %"p_1", 16
  %".343" = add i64 %".342", 208
  %".344" = getelementptr inbounds float, ptr %"C", i64 %".343"
  store <16 x float> %".341", ptr %".344", align 4
  %".346" = add i64 %"p_1", 1
  store i64 %".346", ptr %"p_1.slot"
  br label %"p_1.head"
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
  %"gemm_scratch" = alloca [128 x float], align 64
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