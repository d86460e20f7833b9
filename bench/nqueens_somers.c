/* nqueens_somers.c: count the solutions of the N-queens problem with Jeff
 * Somers' bitboard backtracking: one word each for the occupied columns and
 * the two diagonal directions (shifted by one per row), the lowest free bit
 * taken with x & -x, and the mirror symmetry used to search only the left
 * half of the first row (plus the middle column for odd n, whose first-row
 * symmetry is handled one row further down).  Single-threaded.
 *
 *   cc -O2 -o nqueens_somers nqueens_somers.c
 *   ./nqueens_somers 12        -> 14200
 */
#include <stdio.h>
#include <stdlib.h>

typedef unsigned long long u64;

static u64 all;            /* n low bits set */

/* number of completions of a board whose next row is `row` (of n) */
static u64 solve(int row, int n, u64 cols, u64 left, u64 right)
{
    if (row == n)
        return 1;
    u64 count = 0;
    u64 free = all & ~(cols | left | right);
    while (free) {
        u64 bit = free & (0 - free);
        free ^= bit;
        count += solve(row + 1, n, cols | bit, (left | bit) << 1, (right | bit) >> 1);
    }
    return count;
}

static u64 count_queens(int n)
{
    if (n < 1)
        return 0;
    if (n == 1)
        return 1;
    all = (n == 64) ? ~0ULL : ((1ULL << n) - 1);
    u64 count = 0;
    int half = n / 2;
    /* queen in the first row on columns 0 .. half-1: mirrored solutions
       have it on the right half, so count twice */
    for (int c = 0; c < half; c++) {
        u64 bit = 1ULL << c;
        count += 2 * solve(1, n, bit, bit << 1, bit >> 1);
    }
    if (n & 1) {
        /* queen in the middle column of the first row: the mirror keeps it
           there, so halve on the second row instead (it cannot be in the
           middle column, so its left and right halves are disjoint) */
        u64 bit = 1ULL << half;
        u64 cols = bit, left = bit << 1, right = bit >> 1;
        u64 free = all & ~(cols | left | right);
        for (int c = 0; c < half; c++) {
            u64 b2 = 1ULL << c;
            if (free & b2)
                count += 2 * solve(2, n, cols | b2, (left | b2) << 1, (right | b2) >> 1);
        }
    }
    return count;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 8;
    if (n < 0 || n > 32) {
        fprintf(stderr, "usage: %s n   (0 <= n <= 32)\n", argv[0]);
        return 2;
    }
    printf("%llu\n", count_queens(n));
    return 0;
}
