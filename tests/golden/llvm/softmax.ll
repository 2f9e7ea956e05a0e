; ModuleID = "plaidc"
target triple = "unknown-unknown-unknown"
target datalayout = ""

define internal void @"kernel_0"(ptr noalias %"X_00", ptr noalias %"X_I_0") "prefer-vector-width"="512"
{
entry:
  %"b.slot" = alloca i64
  %"X_00_acc" = alloca float
  %"n_1.slot" = alloca i64
  br label %"start"
start:
  ; kernel_0
  ; kernel_0(X_I_0): X_T1[b, 0 : _T0, _T1] = >(X_I_0[b, n])
  store i64 0, ptr %"b.slot"
  br label %"b.head"
b.head:
  %"b" = load i64, ptr %"b.slot"
  %".8" = icmp slt i64 %"b", 8
  br i1 %".8", label %"b.body", label %"b.exit"
b.body:
  ; kernel_0(X_I_0)
  ; initialise what 'X_T1' aggregates (max)
  %".12" = getelementptr inbounds float, ptr %"X_00", i64 %"b"
  store float 0xfff0000000000000, ptr %".12", align 4
  store float 0xfff0000000000000, ptr %"X_00_acc"
  store i64 0, ptr %"n_1.slot"
  br label %"n_1.head"
b.exit:
  ret void
n_1.head:
  %"n_1" = load i64, ptr %"n_1.slot"
  %".17" = icmp slt i64 %"n_1", 33
  br i1 %".17", label %"n_1.body", label %"n_1.exit"
n_1.body:
  %".19" = mul i64 %"b", 33
  %".20" = add i64 %".19", %"n_1"
  %".21" = getelementptr inbounds float, ptr %"X_I_0", i64 %".20"
  %"X_I_0_1" = load float, ptr %".21", align 4
  %".23" = load float, ptr %"X_00_acc"
  %".24" = call nsz float @"llvm.maximum.f32"(float %".23", float %"X_I_0_1")
  store float %".24", ptr %"X_00_acc"
  %".26" = add i64 %"n_1", 1
  store i64 %".26", ptr %"n_1.slot"
  br label %"n_1.head", !llvm.loop !2
n_1.exit:
  %".29" = getelementptr inbounds float, ptr %"X_00", i64 %"b"
  %".30" = load float, ptr %".29", align 4
  %".31" = load float, ptr %"X_00_acc"
  %".32" = call float @"llvm.maximum.f32"(float %".30", float %".31")
  %".33" = getelementptr inbounds float, ptr %"X_00", i64 %"b"
  store float %".32", ptr %".33", align 4
  %".35" = add i64 %"b", 1
  store i64 %".35", ptr %"b.slot"
  br label %"b.head"
}

define internal void @"kernel_1"(ptr noalias %"X_I_0", ptr noalias %"X_00", ptr noalias %"X_02") "prefer-vector-width"="512"
{
entry:
  %"i1.slot" = alloca i64
  %"i2.slot" = alloca i64
  br label %"start"
start:
  ; kernel_1
  ; kernel_1(X_I_0,X_T1)+kernel_2(X_T2)
  store i64 0, ptr %"i1.slot"
  br label %"i1.head"
i1.head:
  %"i1" = load i64, ptr %"i1.slot"
  %".9" = icmp slt i64 %"i1", 8
  br i1 %".9", label %"i1.body", label %"i1.exit"
i1.body:
  store i64 0, ptr %"i2.slot"
  br label %"i2.head"
i1.exit:
  ret void
i2.head:
  %"i2" = load i64, ptr %"i2.slot"
  %".13" = icmp slt i64 %"i2", 33
  br i1 %".13", label %"i2.body", label %"i2.exit"
i2.body:
  %".15" = mul i64 %"i1", 33
  %".16" = add i64 %".15", %"i2"
  %".17" = getelementptr inbounds float, ptr %"X_I_0", i64 %".16"
  %"X_I_0_2" = load float, ptr %".17", align 4
  %".19" = getelementptr inbounds float, ptr %"X_00", i64 %"i1"
  %"X_T1" = load float, ptr %".19", align 4
  %"X_T2" = fsub float %"X_I_0_2", %"X_T1"
  %"X_T3" = call float @"plaidc.exp.f32"(float %"X_T2")
  %".23" = mul i64 %"i1", 33
  %".24" = add i64 %".23", %"i2"
  %".25" = getelementptr inbounds float, ptr %"X_02", i64 %".24"
  store float %"X_T3", ptr %".25", align 4
  %".27" = add i64 %"i2", 1
  store i64 %".27", ptr %"i2.slot"
  br label %"i2.head", !llvm.loop !3
i2.exit:
  %".30" = add i64 %"i1", 1
  store i64 %".30", ptr %"i1.slot"
  br label %"i1.head"
}

define internal void @"kernel_3"(ptr noalias %"X_03", ptr noalias %"X_02") "prefer-vector-width"="512"
{
entry:
  %"b_2.slot" = alloca i64
  %"X_03_acc" = alloca float
  %"X_03_acc_1" = alloca float
  %"n_3.slot" = alloca i64
  %"n_3.slot.1" = alloca i64
  br label %"start"
start:
  ; kernel_3
  ; kernel_3(X_T3): X_T4[b, 0 : _T4, _T5] = +(X_T3[b, n])
  store i64 0, ptr %"b_2.slot"
  br label %"b_2.head"
b_2.head:
  %"b_2" = load i64, ptr %"b_2.slot"
  %".8" = icmp slt i64 %"b_2", 8
  br i1 %".8", label %"b_2.body", label %"b_2.exit"
b_2.body:
  ; kernel_3(X_T3)
  ; initialise what 'X_T4' aggregates (add)
  %".12" = getelementptr inbounds float, ptr %"X_03", i64 %"b_2"
  store float              0x0, ptr %".12", align 4
  store float              0x0, ptr %"X_03_acc"
  store float              0x0, ptr %"X_03_acc_1"
  store i64 0, ptr %"n_3.slot"
  br label %"n_3.head"
b_2.exit:
  ret void
n_3.head:
  %"n_3" = load i64, ptr %"n_3.slot"
  %".18" = icmp slt i64 %"n_3", 16
  br i1 %".18", label %"n_3.body", label %"n_3.exit"
n_3.body:
  %".20" = mul i64 %"b_2", 33
  %".21" = add i64 %".20", %"n_3"
  %".22" = getelementptr inbounds float, ptr %"X_02", i64 %".21"
  %"X_T3_1" = load float, ptr %".22", align 4
  %".24" = load float, ptr %"X_03_acc"
  %".25" = fadd reassoc float %".24", %"X_T3_1"
  store float %".25", ptr %"X_03_acc"
  %".27" = mul i64 %"b_2", 33
  %".28" = add i64 %".27", %"n_3"
  %".29" = add i64 %".28", 16
  %".30" = getelementptr inbounds float, ptr %"X_02", i64 %".29"
  %"X_T3_1_1" = load float, ptr %".30", align 4
  %".32" = load float, ptr %"X_03_acc_1"
  %".33" = fadd reassoc float %".32", %"X_T3_1_1"
  store float %".33", ptr %"X_03_acc_1"
  %".35" = add i64 %"n_3", 1
  store i64 %".35", ptr %"n_3.slot"
  br label %"n_3.head", !llvm.loop !4
n_3.exit:
  %".38" = load float, ptr %"X_03_acc"
  %".39" = load float, ptr %"X_03_acc_1"
  %".40" = fadd float %".38", %".39"
  store float %".40", ptr %"X_03_acc"
  store i64 32, ptr %"n_3.slot.1"
  br label %"n_3.head.1"
n_3.head.1:
  %"n_3.1" = load i64, ptr %"n_3.slot.1"
  %".44" = icmp slt i64 %"n_3.1", 33
  br i1 %".44", label %"n_3.body.1", label %"n_3.exit.1"
n_3.body.1:
  %".46" = mul i64 %"b_2", 33
  %".47" = add i64 %".46", %"n_3.1"
  %".48" = getelementptr inbounds float, ptr %"X_02", i64 %".47"
  %"X_T3_1.1" = load float, ptr %".48", align 4
  %".50" = load float, ptr %"X_03_acc"
  %".51" = fadd reassoc float %".50", %"X_T3_1.1"
  store float %".51", ptr %"X_03_acc"
  %".53" = add i64 %"n_3.1", 1
  store i64 %".53", ptr %"n_3.slot.1"
  br label %"n_3.head.1", !llvm.loop !5
n_3.exit.1:
  %".56" = getelementptr inbounds float, ptr %"X_03", i64 %"b_2"
  %".57" = load float, ptr %".56", align 4
  %".58" = load float, ptr %"X_03_acc"
  %".59" = fadd float %".57", %".58"
  %".60" = getelementptr inbounds float, ptr %"X_03", i64 %"b_2"
  store float %".59", ptr %".60", align 4
  %".62" = add i64 %"b_2", 1
  store i64 %".62", ptr %"b_2.slot"
  br label %"b_2.head"
}

define internal void @"kernel_4"(ptr noalias %"X_03", ptr noalias %"X_02", ptr noalias %"X_T5") "prefer-vector-width"="512"
{
entry:
  %"i1_1.slot" = alloca i64
  %"i2_1.slot" = alloca i64
  %"i2_1.slot.1" = alloca i64
  br label %"start"
start:
  ; kernel_4
  ; kernel_4(X_T3,X_T4): X_T5 = div(X_T3, X_T4)
  store i64 0, ptr %"i1_1.slot"
  br label %"i1_1.head"
i1_1.head:
  %"i1_1" = load i64, ptr %"i1_1.slot"
  %".9" = icmp slt i64 %"i1_1", 8
  br i1 %".9", label %"i1_1.body", label %"i1_1.exit"
i1_1.body:
  %".11" = getelementptr inbounds float, ptr %"X_03", i64 %"i1_1"
  %"X_T4" = load float, ptr %".11", align 4
  %"recip" = fdiv float 0x3ff0000000000000, %"X_T4"
  %".14" = call float @"llvm.fabs.f32"(float %"X_T4")
  %".15" = fcmp oge float %".14", 0x3810000000000000
  %".16" = call float @"llvm.fabs.f32"(float %"X_T4")
  %".17" = fcmp ole float %".16", 0x47d0000000000000
  %".18" = select  i1 %".15", i1 %".17", i1 0
  %".19" = fcmp oeq float %"X_T4",              0x0
  %".20" = call float @"llvm.fabs.f32"(float %"X_T4")
  %".21" = fcmp oeq float %".20", 0x7ff0000000000000
  %".22" = select  i1 %".19", i1 1, i1 %".21"
  %".23" = select  i1 %".18", i1 1, i1 %".22"
  %"recip_ok" = select  i1 %".23", i64 1, i64 0
  %".25" = icmp ne i64 %"recip_ok", 0
  br i1 %".25", label %"i1_1.body.if", label %"i1_1.body.else"
i1_1.exit:
  ret void
i1_1.body.if:
  store i64 0, ptr %"i2_1.slot"
  br label %"i2_1.head"
i1_1.body.else:
  store i64 0, ptr %"i2_1.slot.1"
  br label %"i2_1.head.1"
i1_1.body.endif:
  %".61" = add i64 %"i1_1", 1
  store i64 %".61", ptr %"i1_1.slot"
  br label %"i1_1.head"
i2_1.head:
  %"i2_1" = load i64, ptr %"i2_1.slot"
  %".29" = icmp slt i64 %"i2_1", 33
  br i1 %".29", label %"i2_1.body", label %"i2_1.exit"
i2_1.body:
  %".31" = mul i64 %"i1_1", 33
  %".32" = add i64 %".31", %"i2_1"
  %".33" = getelementptr inbounds float, ptr %"X_02", i64 %".32"
  %"X_T3_2" = load float, ptr %".33", align 4
  %"X_T5_1" = fmul float %"X_T3_2", %"recip"
  %".36" = mul i64 %"i1_1", 33
  %".37" = add i64 %".36", %"i2_1"
  %".38" = getelementptr inbounds float, ptr %"X_T5", i64 %".37"
  store float %"X_T5_1", ptr %".38", align 4
  %".40" = add i64 %"i2_1", 1
  store i64 %".40", ptr %"i2_1.slot"
  br label %"i2_1.head", !llvm.loop !6
i2_1.exit:
  br label %"i1_1.body.endif"
i2_1.head.1:
  %"i2_1.1" = load i64, ptr %"i2_1.slot.1"
  %".46" = icmp slt i64 %"i2_1.1", 33
  br i1 %".46", label %"i2_1.body.1", label %"i2_1.exit.1"
i2_1.body.1:
  %".48" = mul i64 %"i1_1", 33
  %".49" = add i64 %".48", %"i2_1.1"
  %".50" = getelementptr inbounds float, ptr %"X_02", i64 %".49"
  %"X_T3_2.1" = load float, ptr %".50", align 4
  %"X_T5_1.1" = fdiv float %"X_T3_2.1", %"X_T4"
  %".53" = mul i64 %"i1_1", 33
  %".54" = add i64 %".53", %"i2_1.1"
  %".55" = getelementptr inbounds float, ptr %"X_T5", i64 %".54"
  store float %"X_T5_1.1", ptr %".55", align 4
  %".57" = add i64 %"i2_1.1", 1
  store i64 %".57", ptr %"i2_1.slot.1"
  br label %"i2_1.head.1", !llvm.loop !7
i2_1.exit.1:
  br label %"i1_1.body.endif"
}

define internal void @"plaidc_main"(ptr noalias %"X_I_0", ptr noalias %"X_T5", ptr noalias %"plaidc_status") "prefer-vector-width"="512"
{
entry:
  %"X_00" = alloca [8 x float], align 64
  %"X_02" = alloca [264 x float], align 64
  %"X_03" = alloca [8 x float], align 64
  br label %"start"
start:
  ; the whole program
  ; main
  call void @"kernel_0"(ptr %"X_00", ptr %"X_I_0")
  call void @"kernel_1"(ptr %"X_I_0", ptr %"X_00", ptr %"X_02")
  call void @"kernel_3"(ptr %"X_03", ptr %"X_02")
  call void @"kernel_4"(ptr %"X_03", ptr %"X_02", ptr %"X_T5")
  ret void
}

declare float @"llvm.maximum.f32"(float %".1", float %".2")

define internal float @"plaidc.exp.f32"(float %".1") alwaysinline memory(read) nounwind
{
entry:
  %".3" = getelementptr inbounds [12 x float], [12 x float]* @"plaidc.exp.f32.constants", i32 0, i32 0
  %".4" = load float, float* %".3"
  %".5" = fcmp olt float %".1", %".4"
  %".6" = select  i1 %".5", float %".4", float %".1"
  %".7" = getelementptr inbounds [12 x float], [12 x float]* @"plaidc.exp.f32.constants", i32 0, i32 1
  %".8" = load float, float* %".7"
  %".9" = fcmp ogt float %".6", %".8"
  %".10" = select  i1 %".9", float %".8", float %".6"
  %".11" = getelementptr inbounds [12 x float], [12 x float]* @"plaidc.exp.f32.constants", i32 0, i32 2
  %".12" = load float, float* %".11"
  %".13" = getelementptr inbounds [12 x float], [12 x float]* @"plaidc.exp.f32.constants", i32 0, i32 3
  %".14" = load float, float* %".13"
  %".15" = call float @"llvm.fma.f32"(float %".10", float %".12", float %".14")
  %".16" = bitcast float %".15" to i32
  %".17" = sub i32 %".16", 1262485504
  %".18" = fsub float %".15", %".14"
  %".19" = getelementptr inbounds [12 x float], [12 x float]* @"plaidc.exp.f32.constants", i32 0, i32 4
  %".20" = load float, float* %".19"
  %".21" = call float @"llvm.fma.f32"(float %".18", float %".20", float %".10")
  %".22" = getelementptr inbounds [12 x float], [12 x float]* @"plaidc.exp.f32.constants", i32 0, i32 5
  %".23" = load float, float* %".22"
  %".24" = call float @"llvm.fma.f32"(float %".18", float %".23", float %".21")
  %".25" = getelementptr inbounds [12 x float], [12 x float]* @"plaidc.exp.f32.constants", i32 0, i32 10
  %".26" = load float, float* %".25"
  %".27" = getelementptr inbounds [12 x float], [12 x float]* @"plaidc.exp.f32.constants", i32 0, i32 9
  %".28" = load float, float* %".27"
  %".29" = call float @"llvm.fma.f32"(float %".26", float %".24", float %".28")
  %".30" = getelementptr inbounds [12 x float], [12 x float]* @"plaidc.exp.f32.constants", i32 0, i32 8
  %".31" = load float, float* %".30"
  %".32" = call float @"llvm.fma.f32"(float %".29", float %".24", float %".31")
  %".33" = getelementptr inbounds [12 x float], [12 x float]* @"plaidc.exp.f32.constants", i32 0, i32 7
  %".34" = load float, float* %".33"
  %".35" = call float @"llvm.fma.f32"(float %".32", float %".24", float %".34")
  %".36" = getelementptr inbounds [12 x float], [12 x float]* @"plaidc.exp.f32.constants", i32 0, i32 6
  %".37" = load float, float* %".36"
  %".38" = call float @"llvm.fma.f32"(float %".35", float %".24", float %".37")
  %".39" = fmul float %".38", %".24"
  %".40" = call float @"llvm.fma.f32"(float %".39", float %".24", float %".24")
  %".41" = getelementptr inbounds [12 x float], [12 x float]* @"plaidc.exp.f32.constants", i32 0, i32 11
  %".42" = load float, float* %".41"
  %".43" = fadd float %".40", %".42"
  %".44" = call float @"llvm.ldexp.f32.i32"(float %".43", i32 %".17")
  ret float %".44"
}

declare float @"llvm.fma.f32"(float %".1", float %".2", float %".3")

@"plaidc.exp.f32.constants" = internal externally_initialized global [12 x float] [float 0xc05a000000000000, float 0x4056400000000000, float 0x3ff7154760000000, float 0x4168000000000000, float 0xbfe6300000000000, float 0x3f2bd01060000000, float 0x3fe0000000000000, float 0x3fc5554de0000000, float 0x3fa55551a0000000, float 0x3f8120b620000000, float 0x3f56d10fc0000000, float 0x3ff0000000000000]
declare float @"llvm.ldexp.f32.i32"(float %".1", i32 %".2")

declare float @"llvm.fabs.f32"(float %".1")

define void @"plaidc_entry"(ptr %".1") "prefer-vector-width"="512"
{
entry:
  %".3" = getelementptr inbounds ptr, ptr %".1", i64 0
  %".4" = load ptr, ptr %".3"
  %".5" = getelementptr inbounds ptr, ptr %".1", i64 1
  %".6" = load ptr, ptr %".5"
  %".7" = getelementptr inbounds ptr, ptr %".1", i64 2
  %".8" = load ptr, ptr %".7"
  call void @"plaidc_main"(ptr %".4", ptr %".6", ptr %".8")
  ret void
}

!0 = !{ !"llvm.loop.vectorize.enable", i1 1 }
!1 = !{ !"llvm.loop.unroll.disable" }
!2 = distinct !{ !2, !0, !1 }
!3 = distinct !{ !3, !0, !1 }
!4 = distinct !{ !4, !0, !1 }
!5 = distinct !{ !5, !0, !1 }
!6 = distinct !{ !6, !0, !1 }
!7 = distinct !{ !7, !0, !1 }