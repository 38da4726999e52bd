@ The image of fuzz_views (views_image.h is made from it by
@ make_views_image.sh): main calls fn and tf (Thumb), fn recurses, tf
@ loops; assembled with -g for a DWARF line table.
        .syntax unified
        .text
        .arm
        .global main
        .type main, %function
main:   mov r0, #0
        b 1f
        nop
1:      cmp r0, #1
        beq main
        bl fn
        blx tf
        bx lr
        .size main, .-main
        .type fn, %function
fn:     push {r4, lr}
        cmp r0, #3
        blne fn
        pop {r4, pc}
        .size fn, .-fn
        .thumb
        .type tf, %function
        .thumb_func
tf:     cmp r0, #0
        cbz r0, 2f
        b.n tf
2:      bl tf
        it ne
        bxne lr
        bx lr
        .size tf, .-tf
