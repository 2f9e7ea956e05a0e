; ModuleID = "plaidc"
target triple = "unknown-unknown-unknown"
target datalayout = ""

define internal void @"gemm"(ptr noalias %"A", ptr noalias %"B", ptr noalias %"C", ptr noalias %"scratch") "prefer-vector-width"="512"
{
entry:
  %"i0.slot" = alloca i64
  %"p.slot" = alloca i64
  %"c0_0" = alloca <16 x float>
  %"c0_1" = alloca <16 x float>
  %"c0_2" = alloca <16 x float>
  %"c0_3" = alloca <16 x float>
  %"c0_4" = alloca <16 x float>
  %"c1_0" = alloca <16 x float>
  %"c1_1" = alloca <16 x float>
  %"c1_2" = alloca <16 x float>
  %"c1_3" = alloca <16 x float>
  %"c1_4" = alloca <16 x float>
  %"c2_0" = alloca <16 x float>
  %"c2_1" = alloca <16 x float>
  %"c2_2" = alloca <16 x float>
  %"c2_3" = alloca <16 x float>
  %"c2_4" = alloca <16 x float>
  %"c3_0" = alloca <16 x float>
  %"c3_1" = alloca <16 x float>
  %"c3_2" = alloca <16 x float>
  %"c3_3" = alloca <16 x float>
  %"c3_4" = alloca <16 x float>
  %"c4_0" = alloca <16 x float>
  %"c4_1" = alloca <16 x float>
  %"c4_2" = alloca <16 x float>
  %"c4_3" = alloca <16 x float>
  %"c4_4" = alloca <16 x float>
  %"k_1.slot" = alloca i64
  %"p_1.slot" = alloca i64
  %"c0_0_1" = alloca <16 x float>
  %"c0_1_1" = alloca <16 x float>
  %"c0_2_1" = alloca <16 x float>
  %"c0_3_1" = alloca <16 x float>
  %"c0_4_1" = alloca <16 x float>
  %"c1_0_1" = alloca <16 x float>
  %"c1_1_1" = alloca <16 x float>
  %"c1_2_1" = alloca <16 x float>
  %"c1_3_1" = alloca <16 x float>
  %"c1_4_1" = alloca <16 x float>
  %"k_2.slot" = alloca i64
  br label %"start"
start:
  ; micro-kernel C = A B: 32x80x48 fp32, A strides (48, 1), B strides (80, 1), C row stride 80; 5x80 register block
  store i64 0, ptr %"i0.slot"
  br label %"i0.head"
i0.head:
  %"i0" = load i64, ptr %"i0.slot"
  %".9" = icmp slt i64 %"i0", 30
  br i1 %".9", label %"i0.body", label %"i0.exit"
i0.body:
  %"arow0" = mul i64 %"i0", 48
  %".12" = mul i64 %"i0", 48
  %"arow1" = add i64 %".12", 48
  %".14" = mul i64 %"i0", 48
  %"arow2" = add i64 %".14", 96
  %".16" = mul i64 %"i0", 48
  %"arow3" = add i64 %".16", 144
  %".18" = mul i64 %"i0", 48
  %"arow4" = add i64 %".18", 192
  store i64 0, ptr %"p.slot"
  br label %"p.head"
i0.exit:
  store i64 0, ptr %"p_1.slot"
  br label %"p_1.head"
p.head:
  %"p" = load i64, ptr %"p.slot"
  %".22" = icmp slt i64 %"p", 1
  br i1 %".22", label %"p.body", label %"p.exit"
p.body:
  %".24" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".25" = shufflevector <16 x float> %".24", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".25", ptr %"c0_0"
  %".27" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".28" = shufflevector <16 x float> %".27", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".28", ptr %"c0_1"
  %".30" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".31" = shufflevector <16 x float> %".30", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".31", ptr %"c0_2"
  %".33" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".34" = shufflevector <16 x float> %".33", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".34", ptr %"c0_3"
  %".36" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".37" = shufflevector <16 x float> %".36", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".37", ptr %"c0_4"
  %".39" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".40" = shufflevector <16 x float> %".39", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".40", ptr %"c1_0"
  %".42" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".43" = shufflevector <16 x float> %".42", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".43", ptr %"c1_1"
  %".45" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".46" = shufflevector <16 x float> %".45", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".46", ptr %"c1_2"
  %".48" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".49" = shufflevector <16 x float> %".48", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".49", ptr %"c1_3"
  %".51" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".52" = shufflevector <16 x float> %".51", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".52", ptr %"c1_4"
  %".54" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".55" = shufflevector <16 x float> %".54", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".55", ptr %"c2_0"
  %".57" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".58" = shufflevector <16 x float> %".57", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".58", ptr %"c2_1"
  %".60" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".61" = shufflevector <16 x float> %".60", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".61", ptr %"c2_2"
  %".63" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".64" = shufflevector <16 x float> %".63", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".64", ptr %"c2_3"
  %".66" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".67" = shufflevector <16 x float> %".66", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".67", ptr %"c2_4"
  %".69" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".70" = shufflevector <16 x float> %".69", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".70", ptr %"c3_0"
  %".72" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".73" = shufflevector <16 x float> %".72", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".73", ptr %"c3_1"
  %".75" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".76" = shufflevector <16 x float> %".75", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".76", ptr %"c3_2"
  %".78" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".79" = shufflevector <16 x float> %".78", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".79", ptr %"c3_3"
  %".81" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".82" = shufflevector <16 x float> %".81", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".82", ptr %"c3_4"
  %".84" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".85" = shufflevector <16 x float> %".84", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".85", ptr %"c4_0"
  %".87" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".88" = shufflevector <16 x float> %".87", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".88", ptr %"c4_1"
  %".90" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".91" = shufflevector <16 x float> %".90", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".91", ptr %"c4_2"
  %".93" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".94" = shufflevector <16 x float> %".93", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".94", ptr %"c4_3"
  %".96" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".97" = shufflevector <16 x float> %".96", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".97", ptr %"c4_4"
  store i64 0, ptr %"k_1.slot"
  br label %"k_1.head"
p.exit:
  %".412" = add i64 %"i0", 5
  store i64 %".412", ptr %"i0.slot"
  br label %"i0.head"
k_1.head:
  %"k_1" = load i64, ptr %"k_1.slot"
  %".101" = icmp slt i64 %"k_1", 48
  br i1 %".101", label %"k_1.body", label %"k_1.exit"
k_1.body:
  %".103" = mul i64 %"k_1", 80
  %".104" = mul i64 %"p", 80
  %".105" = add i64 %".103", %".104"
  %".106" = getelementptr inbounds float, ptr %"B", i64 %".105"
  %"b0" = load <16 x float>, ptr %".106", align 4
  %".108" = mul i64 %"k_1", 80
  %".109" = mul i64 %"p", 80
  %".110" = add i64 %".108", %".109"
  %".111" = add i64 %".110", 16
  %".112" = getelementptr inbounds float, ptr %"B", i64 %".111"
  %"b1" = load <16 x float>, ptr %".112", align 4
  %".114" = mul i64 %"k_1", 80
  %".115" = mul i64 %"p", 80
  %".116" = add i64 %".114", %".115"
  %".117" = add i64 %".116", 32
  %".118" = getelementptr inbounds float, ptr %"B", i64 %".117"
  %"b2" = load <16 x float>, ptr %".118", align 4
  %".120" = mul i64 %"k_1", 80
  %".121" = mul i64 %"p", 80
  %".122" = add i64 %".120", %".121"
  %".123" = add i64 %".122", 48
  %".124" = getelementptr inbounds float, ptr %"B", i64 %".123"
  %"b3" = load <16 x float>, ptr %".124", align 4
  %".126" = mul i64 %"k_1", 80
  %".127" = mul i64 %"p", 80
  %".128" = add i64 %".126", %".127"
  %".129" = add i64 %".128", 64
  %".130" = getelementptr inbounds float, ptr %"B", i64 %".129"
  %"b4" = load <16 x float>, ptr %".130", align 4
  %".132" = add i64 %"arow0", %"k_1"
  %".133" = getelementptr inbounds float, ptr %"A", i64 %".132"
  %".134" = load float, ptr %".133", align 4
  %".135" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".134", i32 0
  %"a0" = shufflevector <16 x float> %".135", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".137" = load <16 x float>, ptr %"c0_0"
  %".138" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a0", <16 x float> %"b0", <16 x float> %".137")
  store <16 x float> %".138", ptr %"c0_0"
  %".140" = load <16 x float>, ptr %"c0_1"
  %".141" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a0", <16 x float> %"b1", <16 x float> %".140")
  store <16 x float> %".141", ptr %"c0_1"
  %".143" = load <16 x float>, ptr %"c0_2"
  %".144" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a0", <16 x float> %"b2", <16 x float> %".143")
  store <16 x float> %".144", ptr %"c0_2"
  %".146" = load <16 x float>, ptr %"c0_3"
  %".147" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a0", <16 x float> %"b3", <16 x float> %".146")
  store <16 x float> %".147", ptr %"c0_3"
  %".149" = load <16 x float>, ptr %"c0_4"
  %".150" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a0", <16 x float> %"b4", <16 x float> %".149")
  store <16 x float> %".150", ptr %"c0_4"
  %".152" = add i64 %"arow1", %"k_1"
  %".153" = getelementptr inbounds float, ptr %"A", i64 %".152"
  %".154" = load float, ptr %".153", align 4
  %".155" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".154", i32 0
  %"a1" = shufflevector <16 x float> %".155", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".157" = load <16 x float>, ptr %"c1_0"
  %".158" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a1", <16 x float> %"b0", <16 x float> %".157")
  store <16 x float> %".158", ptr %"c1_0"
  %".160" = load <16 x float>, ptr %"c1_1"
  %".161" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a1", <16 x float> %"b1", <16 x float> %".160")
  store <16 x float> %".161", ptr %"c1_1"
  %".163" = load <16 x float>, ptr %"c1_2"
  %".164" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a1", <16 x float> %"b2", <16 x float> %".163")
  store <16 x float> %".164", ptr %"c1_2"
  %".166" = load <16 x float>, ptr %"c1_3"
  %".167" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a1", <16 x float> %"b3", <16 x float> %".166")
  store <16 x float> %".167", ptr %"c1_3"
  %".169" = load <16 x float>, ptr %"c1_4"
  %".170" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a1", <16 x float> %"b4", <16 x float> %".169")
  store <16 x float> %".170", ptr %"c1_4"
  %".172" = add i64 %"arow2", %"k_1"
  %".173" = getelementptr inbounds float, ptr %"A", i64 %".172"
  %".174" = load float, ptr %".173", align 4
  %".175" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".174", i32 0
  %"a2" = shufflevector <16 x float> %".175", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".177" = load <16 x float>, ptr %"c2_0"
  %".178" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a2", <16 x float> %"b0", <16 x float> %".177")
  store <16 x float> %".178", ptr %"c2_0"
  %".180" = load <16 x float>, ptr %"c2_1"
  %".181" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a2", <16 x float> %"b1", <16 x float> %".180")
  store <16 x float> %".181", ptr %"c2_1"
  %".183" = load <16 x float>, ptr %"c2_2"
  %".184" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a2", <16 x float> %"b2", <16 x float> %".183")
  store <16 x float> %".184", ptr %"c2_2"
  %".186" = load <16 x float>, ptr %"c2_3"
  %".187" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a2", <16 x float> %"b3", <16 x float> %".186")
  store <16 x float> %".187", ptr %"c2_3"
  %".189" = load <16 x float>, ptr %"c2_4"
  %".190" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a2", <16 x float> %"b4", <16 x float> %".189")
  store <16 x float> %".190", ptr %"c2_4"
  %".192" = add i64 %"arow3", %"k_1"
  %".193" = getelementptr inbounds float, ptr %"A", i64 %".192"
  %".194" = load float, ptr %".193", align 4
  %".195" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".194", i32 0
  %"a3" = shufflevector <16 x float> %".195", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".197" = load <16 x float>, ptr %"c3_0"
  %".198" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a3", <16 x float> %"b0", <16 x float> %".197")
  store <16 x float> %".198", ptr %"c3_0"
  %".200" = load <16 x float>, ptr %"c3_1"
  %".201" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a3", <16 x float> %"b1", <16 x float> %".200")
  store <16 x float> %".201", ptr %"c3_1"
  %".203" = load <16 x float>, ptr %"c3_2"
  %".204" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a3", <16 x float> %"b2", <16 x float> %".203")
  store <16 x float> %".204", ptr %"c3_2"
  %".206" = load <16 x float>, ptr %"c3_3"
  %".207" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a3", <16 x float> %"b3", <16 x float> %".206")
  store <16 x float> %".207", ptr %"c3_3"
  %".209" = load <16 x float>, ptr %"c3_4"
  %".210" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a3", <16 x float> %"b4", <16 x float> %".209")
  store <16 x float> %".210", ptr %"c3_4"
  %".212" = add i64 %"arow4", %"k_1"
  %".213" = getelementptr inbounds float, ptr %"A", i64 %".212"
  %".214" = load float, ptr %".213", align 4
  %".215" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".214", i32 0
  %"a4" = shufflevector <16 x float> %".215", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".217" = load <16 x float>, ptr %"c4_0"
  %".218" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a4", <16 x float> %"b0", <16 x float> %".217")
  store <16 x float> %".218", ptr %"c4_0"
  %".220" = load <16 x float>, ptr %"c4_1"
  %".221" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a4", <16 x float> %"b1", <16 x float> %".220")
  store <16 x float> %".221", ptr %"c4_1"
  %".223" = load <16 x float>, ptr %"c4_2"
  %".224" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a4", <16 x float> %"b2", <16 x float> %".223")
  store <16 x float> %".224", ptr %"c4_2"
  %".226" = load <16 x float>, ptr %"c4_3"
  %".227" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a4", <16 x float> %"b3", <16 x float> %".226")
  store <16 x float> %".227", ptr %"c4_3"
  %".229" = load <16 x float>, ptr %"c4_4"
  %".230" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a4", <16 x float> %"b4", <16 x float> %".229")
  store <16 x float> %".230", ptr %"c4_4"
  %".232" = add i64 %"k_1", 1
  store i64 %".232", ptr %"k_1.slot"
  br label %"k_1.head"
k_1.exit:
  %".235" = load <16 x float>, ptr %"c0_0"
  %".236" = mul i64 %"i0", 80
  %".237" = mul i64 %"p", 80
  %".238" = add i64 %".236", %".237"
  %".239" = getelementptr inbounds float, ptr %"C", i64 %".238"
  store <16 x float> %".235", ptr %".239", align 4
  %".241" = load <16 x float>, ptr %"c0_1"
  %".242" = mul i64 %"i0", 80
  %".243" = mul i64 %"p", 80
  %".244" = add i64 %".242", %".243"
  %".245" = add i64 %".244", 16
  %".246" = getelementptr inbounds float, ptr %"C", i64 %".245"
  store <16 x float> %".241", ptr %".246", align 4
  %".248" = load <16 x float>, ptr %"c0_2"
  %".249" = mul i64 %"i0", 80
  %".250" = mul i64 %"p", 80
  %".251" = add i64 %".249", %".250"
  %".252" = add i64 %".251", 32
  %".253" = getelementptr inbounds float, ptr %"C", i64 %".252"
  store <16 x float> %".248", ptr %".253", align 4
  %".255" = load <16 x float>, ptr %"c0_3"
  %".256" = mul i64 %"i0", 80
  %".257" = mul i64 %"p", 80
  %".258" = add i64 %".256", %".257"
  %".259" = add i64 %".258", 48
  %".260" = getelementptr inbounds float, ptr %"C", i64 %".259"
  store <16 x float> %".255", ptr %".260", align 4
  %".262" = load <16 x float>, ptr %"c0_4"
  %".263" = mul i64 %"i0", 80
  %".264" = mul i64 %"p", 80
  %".265" = add i64 %".263", %".264"
  %".266" = add i64 %".265", 64
  %".267" = getelementptr inbounds float, ptr %"C", i64 %".266"
  store <16 x float> %".262", ptr %".267", align 4
  %".269" = load <16 x float>, ptr %"c1_0"
  %".270" = mul i64 %"i0", 80
  %".271" = mul i64 %"p", 80
  %".272" = add i64 %".270", %".271"
  %".273" = add i64 %".272", 80
  %".274" = getelementptr inbounds float, ptr %"C", i64 %".273"
  store <16 x float> %".269", ptr %".274", align 4
  %".276" = load <16 x float>, ptr %"c1_1"
  %".277" = mul i64 %"i0", 80
  %".278" = mul i64 %"p", 80
  %".279" = add i64 %".277", %".278"
  %".280" = add i64 %".279", 96
  %".281" = getelementptr inbounds float, ptr %"C", i64 %".280"
  store <16 x float> %".276", ptr %".281", align 4
  %".283" = load <16 x float>, ptr %"c1_2"
  %".284" = mul i64 %"i0", 80
  %".285" = mul i64 %"p", 80
  %".286" = add i64 %".284", %".285"
  %".287" = add i64 %".286", 112
  %".288" = getelementptr inbounds float, ptr %"C", i64 %".287"
  store <16 x float> %".283", ptr %".288", align 4
  %".290" = load <16 x float>, ptr %"c1_3"
  %".291" = mul i64 %"i0", 80
  %".292" = mul i64 %"p", 80
  %".293" = add i64 %".291", %".292"
  %".294" = add i64 %".293", 128
  %".295" = getelementptr inbounds float, ptr %"C", i64 %".294"
  store <16 x float> %".290", ptr %".295", align 4
  %".297" = load <16 x float>, ptr %"c1_4"
  %".298" = mul i64 %"i0", 80
  %".299" = mul i64 %"p", 80
  %".300" = add i64 %".298", %".299"
  %".301" = add i64 %".300", 144
  %".302" = getelementptr inbounds float, ptr %"C", i64 %".301"
  store <16 x float> %".297", ptr %".302", align 4
  %".304" = load <16 x float>, ptr %"c2_0"
  %".305" = mul i64 %"i0", 80
  %".306" = mul i64 %"p", 80
  %".307" = add i64 %".305", %".306"
  %".308" = add i64 %".307", 160
  %".309" = getelementptr inbounds float, ptr %"C", i64 %".308"
  store <16 x float> %".304", ptr %".309", align 4
  %".311" = load <16 x float>, ptr %"c2_1"
  %".312" = mul i64 %"i0", 80
  %".313" = mul i64 %"p", 80
  %".314" = add i64 %".312", %".313"
  %".315" = add i64 %".314", 176
  %".316" = getelementptr inbounds float, ptr %"C", i64 %".315"
  store <16 x float> %".311", ptr %".316", align 4
  %".318" = load <16 x float>, ptr %"c2_2"
  %".319" = mul i64 %"i0", 80
  %".320" = mul i64 %"p", 80
  %".321" = add i64 %".319", %".320"
  %".322" = add i64 %".321", 192
  %".323" = getelementptr inbounds float, ptr %"C", i64 %".322"
  store <16 x float> %".318", ptr %".323", align 4
  %".325" = load <16 x float>, ptr %"c2_3"
  %".326" = mul i64 %"i0", 80
  %".327" = mul i64 %"p", 80
  %".328" = add i64 %".326", %".327"
  %".329" = add i64 %".328", 208
  %".330" = getelementptr inbounds float, ptr %"C", i64 %".329"
  store <16 x float> %".325", ptr %".330", align 4
  %".332" = load <16 x float>, ptr %"c2_4"
  %".333" = mul i64 %"i0", 80
  %".334" = mul i64 %"p", 80
  %".335" = add i64 %".333", %".334"
  %".336" = add i64 %".335", 224
  %".337" = getelementptr inbounds float, ptr %"C", i64 %".336"
  store <16 x float> %".332", ptr %".337", align 4
  %".339" = load <16 x float>, ptr %"c3_0"
  %".340" = mul i64 %"i0", 80
  %".341" = mul i64 %"p", 80
  %".342" = add i64 %".340", %".341"
  %".343" = add i64 %".342", 240
  %".344" = getelementptr inbounds float, ptr %"C", i64 %".343"
  store <16 x float> %".339", ptr %".344", align 4
  %".346" = load <16 x float>, ptr %"c3_1"
  %".347" = mul i64 %"i0", 80
  %".348" = mul i64 %"p", 80
  %".349" = add i64 %".347", %".348"
  %".350" = add i64 %".349", 256
  %".351" = getelementptr inbounds float, ptr %"C", i64 %".350"
  store <16 x float> %".346", ptr %".351", align 4
  %".353" = load <16 x float>, ptr %"c3_2"
  %".354" = mul i64 %"i0", 80
  %".355" = mul i64 %"p", 80
  %".356" = add i64 %".354", %".355"
  %".357" = add i64 %".356", 272
  %".358" = getelementptr inbounds float, ptr %"C", i64 %".357"
  store <16 x float> %".353", ptr %".358", align 4
  %".360" = load <16 x float>, ptr %"c3_3"
  %".361" = mul i64 %"i0", 80
  %".362" = mul i64 %"p", 80
  %".363" = add i64 %".361", %".362"
  %".364" = add i64 %".363", 288
  %".365" = getelementptr inbounds float, ptr %"C", i64 %".364"
  store <16 x float> %".360", ptr %".365", align 4
  %".367" = load <16 x float>, ptr %"c3_4"
  %".368" = mul i64 %"i0", 80
  %".369" = mul i64 %"p", 80
  %".370" = add i64 %".368", %".369"
  %".371" = add i64 %".370", 304
  %".372" = getelementptr inbounds float, ptr %"C", i64 %".371"
  store <16 x float> %".367", ptr %".372", align 4
  %".374" = load <16 x float>, ptr %"c4_0"
  %".375" = mul i64 %"i0", 80
  %".376" = mul i64 %"p", 80
  %".377" = add i64 %".375", %".376"
  %".378" = add i64 %".377", 320
  %".379" = getelementptr inbounds float, ptr %"C", i64 %".378"
  store <16 x float> %".374", ptr %".379", align 4
  %".381" = load <16 x float>, ptr %"c4_1"
  %".382" = mul i64 %"i0", 80
  %".383" = mul i64 %"p", 80
  %".384" = add i64 %".382", %".383"
  %".385" = add i64 %".384", 336
  %".386" = getelementptr inbounds float, ptr %"C", i64 %".385"
  store <16 x float> %".381", ptr %".386", align 4
  %".388" = load <16 x float>, ptr %"c4_2"
  %".389" = mul i64 %"i0", 80
  %".390" = mul i64 %"p", 80
  %".391" = add i64 %".389", %".390"
  %".392" = add i64 %".391", 352
  %".393" = getelementptr inbounds float, ptr %"C", i64 %".392"
  store <16 x float> %".388", ptr %".393", align 4
  %".395" = load <16 x float>, ptr %"c4_3"
  %".396" = mul i64 %"i0", 80
  %".397" = mul i64 %"p", 80
  %".398" = add i64 %".396", %".397"
  %".399" = add i64 %".398", 368
  %".400" = getelementptr inbounds float, ptr %"C", i64 %".399"
  store <16 x float> %".395", ptr %".400", align 4
  %".402" = load <16 x float>, ptr %"c4_4"
  %".403" = mul i64 %"i0", 80
  %".404" = mul i64 %"p", 80
  %".405" = add i64 %".403", %".404"
  %".406" = add i64 %".405", 384
  %".407" = getelementptr inbounds float, ptr %"C", i64 %".406"
  store <16 x float> %".402", ptr %".407", align 4
  %".409" = add i64 %"p", 1
  store i64 %".409", ptr %"p.slot"
  br label %"p.head"
p_1.head:
  %"p_1" = load i64, ptr %"p_1.slot"
  %".417" = icmp slt i64 %"p_1", 1
  br i1 %".417", label %"p_1.body", label %"p_1.exit"
p_1.body:
  %".419" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".420" = shufflevector <16 x float> %".419", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".420", ptr %"c0_0_1"
  %".422" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".423" = shufflevector <16 x float> %".422", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".423", ptr %"c0_1_1"
  %".425" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".426" = shufflevector <16 x float> %".425", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".426", ptr %"c0_2_1"
  %".428" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".429" = shufflevector <16 x float> %".428", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".429", ptr %"c0_3_1"
  %".431" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".432" = shufflevector <16 x float> %".431", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".432", ptr %"c0_4_1"
  %".434" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".435" = shufflevector <16 x float> %".434", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".435", ptr %"c1_0_1"
  %".437" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".438" = shufflevector <16 x float> %".437", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".438", ptr %"c1_1_1"
  %".440" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".441" = shufflevector <16 x float> %".440", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".441", ptr %"c1_2_1"
  %".443" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".444" = shufflevector <16 x float> %".443", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".444", ptr %"c1_3_1"
  %".446" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float              0x0, i32 0
  %".447" = shufflevector <16 x float> %".446", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  store <16 x float> %".447", ptr %"c1_4_1"
  store i64 0, ptr %"k_2.slot"
  br label %"k_2.head"
p_1.exit:
  ret void
k_2.head:
  %"k_2" = load i64, ptr %"k_2.slot"
  %".451" = icmp slt i64 %"k_2", 48
  br i1 %".451", label %"k_2.body", label %"k_2.exit"
k_2.body:
  %".453" = mul i64 %"k_2", 80
  %".454" = mul i64 %"p_1", 80
  %".455" = add i64 %".453", %".454"
  %".456" = getelementptr inbounds float, ptr %"B", i64 %".455"
  %"b0_1" = load <16 x float>, ptr %".456", align 4
  %".458" = mul i64 %"k_2", 80
  %".459" = mul i64 %"p_1", 80
  %".460" = add i64 %".458", %".459"
  %".461" = add i64 %".460", 16
  %".462" = getelementptr inbounds float, ptr %"B", i64 %".461"
  %"b1_1" = load <16 x float>, ptr %".462", align 4
  %".464" = mul i64 %"k_2", 80
  %".465" = mul i64 %"p_1", 80
  %".466" = add i64 %".464", %".465"
  %".467" = add i64 %".466", 32
  %".468" = getelementptr inbounds float, ptr %"B", i64 %".467"
  %"b2_1" = load <16 x float>, ptr %".468", align 4
  %".470" = mul i64 %"k_2", 80
  %".471" = mul i64 %"p_1", 80
  %".472" = add i64 %".470", %".471"
  %".473" = add i64 %".472", 48
  %".474" = getelementptr inbounds float, ptr %"B", i64 %".473"
  %"b3_1" = load <16 x float>, ptr %".474", align 4
  %".476" = mul i64 %"k_2", 80
  %".477" = mul i64 %"p_1", 80
  %".478" = add i64 %".476", %".477"
  %".479" = add i64 %".478", 64
  %".480" = getelementptr inbounds float, ptr %"B", i64 %".479"
  %"b4_1" = load <16 x float>, ptr %".480", align 4
  %".482" = add i64 %"k_2", 1440
  %".483" = getelementptr inbounds float, ptr %"A", i64 %".482"
  %".484" = load float, ptr %".483", align 4
  %".485" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".484", i32 0
  %"a0_1" = shufflevector <16 x float> %".485", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".487" = load <16 x float>, ptr %"c0_0_1"
  %".488" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a0_1", <16 x float> %"b0_1", <16 x float> %".487")
  store <16 x float> %".488", ptr %"c0_0_1"
  %".490" = load <16 x float>, ptr %"c0_1_1"
  %".491" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a0_1", <16 x float> %"b1_1", <16 x float> %".490")
  store <16 x float> %".491", ptr %"c0_1_1"
  %".493" = load <16 x float>, ptr %"c0_2_1"
  %".494" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a0_1", <16 x float> %"b2_1", <16 x float> %".493")
  store <16 x float> %".494", ptr %"c0_2_1"
  %".496" = load <16 x float>, ptr %"c0_3_1"
  %".497" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a0_1", <16 x float> %"b3_1", <16 x float> %".496")
  store <16 x float> %".497", ptr %"c0_3_1"
  %".499" = load <16 x float>, ptr %"c0_4_1"
  %".500" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a0_1", <16 x float> %"b4_1", <16 x float> %".499")
  store <16 x float> %".500", ptr %"c0_4_1"
  %".502" = add i64 %"k_2", 1488
  %".503" = getelementptr inbounds float, ptr %"A", i64 %".502"
  %".504" = load float, ptr %".503", align 4
  %".505" = insertelement <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, float %".504", i32 0
  %"a1_1" = shufflevector <16 x float> %".505", <16 x float> <float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef, float undef>, <16 x i32> <i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>
  %".507" = load <16 x float>, ptr %"c1_0_1"
  %".508" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a1_1", <16 x float> %"b0_1", <16 x float> %".507")
  store <16 x float> %".508", ptr %"c1_0_1"
  %".510" = load <16 x float>, ptr %"c1_1_1"
  %".511" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a1_1", <16 x float> %"b1_1", <16 x float> %".510")
  store <16 x float> %".511", ptr %"c1_1_1"
  %".513" = load <16 x float>, ptr %"c1_2_1"
  %".514" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a1_1", <16 x float> %"b2_1", <16 x float> %".513")
  store <16 x float> %".514", ptr %"c1_2_1"
  %".516" = load <16 x float>, ptr %"c1_3_1"
  %".517" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a1_1", <16 x float> %"b3_1", <16 x float> %".516")
  store <16 x float> %".517", ptr %"c1_3_1"
  %".519" = load <16 x float>, ptr %"c1_4_1"
  %".520" = call <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %"a1_1", <16 x float> %"b4_1", <16 x float> %".519")
  store <16 x float> %".520", ptr %"c1_4_1"
  %".522" = add i64 %"k_2", 1
  store i64 %".522", ptr %"k_2.slot"
  br label %"k_2.head"
k_2.exit:
  %".525" = load <16 x float>, ptr %"c0_0_1"
  %".526" = mul i64 %"p_1", 80
  %".527" = add i64 %".526", 2400
  %".528" = getelementptr inbounds float, ptr %"C", i64 %".527"
  store <16 x float> %".525", ptr %".528", align 4
  %".530" = load <16 x float>, ptr %"c0_1_1"
  %".531" = mul i64 %"p_1", 80
  %".532" = add i64 %".531", 2416
  %".533" = getelementptr inbounds float, ptr %"C", i64 %".532"
  store <16 x float> %".530", ptr %".533", align 4
  %".535" = load <16 x float>, ptr %"c0_2_1"
  %".536" = mul i64 %"p_1", 80
  %".537" = add i64 %".536", 2432
  %".538" = getelementptr inbounds float, ptr %"C", i64 %".537"
  store <16 x float> %".535", ptr %".538", align 4
  %".540" = load <16 x float>, ptr %"c0_3_1"
  %".541" = mul i64 %"p_1", 80
  %".542" = add i64 %".541", 2448
  %".543" = getelementptr inbounds float, ptr %"C", i64 %".542"
  store <16 x float> %".540", ptr %".543", align 4
  %".545" = load <16 x float>, ptr %"c0_4_1"
  %".546" = mul i64 %"p_1", 80
  %".547" = add i64 %".546", 2464
  %".548" = getelementptr inbounds float, ptr %"C", i64 %".547"
  store <16 x float> %".545", ptr %".548", align 4
  %".550" = load <16 x float>, ptr %"c1_0_1"
  %".551" = mul i64 %"p_1", 80
  %".552" = add i64 %".551", 2480
  %".553" = getelementptr inbounds float, ptr %"C", i64 %".552"
  store <16 x float> %".550", ptr %".553", align 4
  %".555" = load <16 x float>, ptr %"c1_1_1"
  %".556" = mul i64 %"p_1", 80
  %".557" = add i64 %".556", 2496
  %".558" = getelementptr inbounds float, ptr %"C", i64 %".557"
  store <16 x float> %".555", ptr %".558", align 4
  %".560" = load <16 x float>, ptr %"c1_2_1"
  %".561" = mul i64 %"p_1", 80
  %".562" = add i64 %".561", 2512
  %".563" = getelementptr inbounds float, ptr %"C", i64 %".562"
  store <16 x float> %".560", ptr %".563", align 4
  %".565" = load <16 x float>, ptr %"c1_3_1"
  %".566" = mul i64 %"p_1", 80
  %".567" = add i64 %".566", 2528
  %".568" = getelementptr inbounds float, ptr %"C", i64 %".567"
  store <16 x float> %".565", ptr %".568", align 4
  %".570" = load <16 x float>, ptr %"c1_4_1"
  %".571" = mul i64 %"p_1", 80
  %".572" = add i64 %".571", 2544
  %".573" = getelementptr inbounds float, ptr %"C", i64 %".572"
  store <16 x float> %".570", ptr %".573", align 4
  %".575" = add i64 %"p_1", 1
  store i64 %".575", ptr %"p_1.slot"
  br label %"p_1.head"
}

define internal void @"kernel_0"(ptr noalias %"X_I_0", ptr noalias %"X_I_1", ptr noalias %"X_T2") "prefer-vector-width"="512"
{
entry:
  %"m.team" = alloca [65 x i32]
  %"m.ctx" = alloca {i64, i64, ptr, ptr, ptr, ptr}
  br label %"start"
start:
  ; kernel_0
  ; kernel_0(X_I_0,X_I_1): X_T2[m, n : _T0, _T1] = +(X_I_0[m, k] * X_I_1[k, n])
  %".7" = getelementptr inbounds {i64, i64, ptr, ptr, ptr, ptr}, ptr %"m.ctx", i32 0, i32 0
  store i64 0, ptr %".7"
  %".9" = getelementptr inbounds {i64, i64, ptr, ptr, ptr, ptr}, ptr %"m.ctx", i32 0, i32 1
  store i64 2, ptr %".9"
  %".11" = getelementptr inbounds {i64, i64, ptr, ptr, ptr, ptr}, ptr %"m.ctx", i32 0, i32 2
  store ptr %"X_I_0", ptr %".11"
  %".13" = getelementptr inbounds {i64, i64, ptr, ptr, ptr, ptr}, ptr %"m.ctx", i32 0, i32 3
  store ptr %"X_I_1", ptr %".13"
  %".15" = getelementptr inbounds {i64, i64, ptr, ptr, ptr, ptr}, ptr %"m.ctx", i32 0, i32 4
  store ptr %"X_T2", ptr %".15"
  %".17" = getelementptr inbounds {i64, i64, ptr, ptr, ptr, ptr}, ptr %"m.ctx", i32 0, i32 5
  store ptr %"m.team", ptr %".17"
  %".19" = call i32 @"plaidc.team_wanted"(ptr @"plaidc.shared_cpu")
  %".20" = icmp ne i32 %".19", 0
  %".21" = select  i1 %".20", i32 0, i32 1
  call void @"GOMP_parallel"(void (ptr)* @"kernel_0.parallel.1", ptr %"m.ctx", i32 %".21", i32 0)
  br i1 %".20", label %"start.if", label %"start.endif"
start.if:
  call void @"plaidc.team_check"(ptr @"plaidc.shared_cpu", ptr %"m.team", i32 64)
  br label %"start.endif"
start.endif:
  ret void
}

define internal void @"plaidc_main"(ptr noalias %"X_I_0", ptr noalias %"X_I_1", ptr noalias %"X_T2", ptr noalias %"plaidc_status") "prefer-vector-width"="512"
{
entry:
  br label %"start"
start:
  ; the whole program
  ; main
  call void @"kernel_0"(ptr %"X_I_0", ptr %"X_I_1", ptr %"X_T2")
  ret void
}

declare <16 x float> @"llvm.fmuladd.v16f32"(<16 x float> %".1", <16 x float> %".2", <16 x float> %".3")

define internal void @"kernel_0.parallel.1"(ptr %".1") "prefer-vector-width"="512"
{
entry:
  %"m.it.slot" = alloca i64
  %"gemm_scratch" = alloca [3840 x float], align 64
  br label %"start"
start:
  %".3" = getelementptr inbounds {i64, i64, ptr, ptr, ptr, ptr}, ptr %".1", i32 0, i32 0
  %".4" = load i64, ptr %".3"
  %".5" = getelementptr inbounds {i64, i64, ptr, ptr, ptr, ptr}, ptr %".1", i32 0, i32 1
  %".6" = load i64, ptr %".5"
  %".7" = getelementptr inbounds {i64, i64, ptr, ptr, ptr, ptr}, ptr %".1", i32 0, i32 2
  %".8" = load ptr, ptr %".7"
  %".9" = getelementptr inbounds {i64, i64, ptr, ptr, ptr, ptr}, ptr %".1", i32 0, i32 3
  %".10" = load ptr, ptr %".9"
  %".11" = getelementptr inbounds {i64, i64, ptr, ptr, ptr, ptr}, ptr %".1", i32 0, i32 4
  %".12" = load ptr, ptr %".11"
  %".13" = getelementptr inbounds {i64, i64, ptr, ptr, ptr, ptr}, ptr %".1", i32 0, i32 5
  %".14" = load ptr, ptr %".13"
  call void @"plaidc.team_mark"(ptr %".14")
  %".16" = call i32 @"omp_get_thread_num"()
  %".17" = sext i32 %".16" to i64
  %".18" = call i32 @"omp_get_num_threads"()
  %".19" = sext i32 %".18" to i64
  %".20" = sub i64 %".6", %".4"
  %".21" = add i64 %".20", 0
  %".22" = sdiv i64 %".21", 1
  %".23" = icmp slt i64 %".22", 0
  %".24" = select  i1 %".23", i64 0, i64 %".22"
  %".25" = sub i64 %".19", 1
  %".26" = add i64 %".24", %".25"
  %".27" = sdiv i64 %".26", %".19"
  %".28" = mul i64 %".17", %".27"
  %".29" = add i64 %".28", %".27"
  %".30" = icmp slt i64 %".29", %".24"
  %".31" = select  i1 %".30", i64 %".29", i64 %".24"
  store i64 %".28", ptr %"m.it.slot"
  br label %"m.it.head"
m.it.head:
  %"m.it" = load i64, ptr %"m.it.slot"
  %".34" = icmp slt i64 %"m.it", %".31"
  br i1 %".34", label %"m.it.body", label %"m.it.exit"
m.it.body:
  %".36" = mul i64 %"m.it", 1
  %"m" = add i64 %".4", %".36"
  ; kernel_0(X_I_0,X_I_1)
  ; #0
  %".40" = mul i64 %"m", 1536
  %".41" = getelementptr inbounds float, ptr %".8", i64 %".40"
  %".42" = mul i64 %"m", 2560
  %".43" = getelementptr inbounds float, ptr %".12", i64 %".42"
  call void @"gemm"(ptr %".41", ptr %".10", ptr %".43", ptr %"gemm_scratch")
  %".45" = add i64 %"m.it", 1
  store i64 %".45", ptr %"m.it.slot"
  br label %"m.it.head"
m.it.exit:
  ret void
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
  call void @"plaidc_main"(ptr %".4", ptr %".6", ptr %".8", ptr %".10")
  ret void
}
