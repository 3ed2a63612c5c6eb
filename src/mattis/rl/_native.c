/* The native batched engine: N games of the four presets (mattis, hund, blodmattis,
 * skitgubbe: their options, any phase2_cap), held as bitmasks, stepped by action ids, with the ``random`` opponents
 * and ``easy`` (the heuristic bot) opponents played inside, writing observation tensors, legal-action masks, rewards,
 * terminations and truncations into buffers the caller owns (NumPy arrays).
 *
 * A speed path, in lockstep with the Python core (mattis.core.state and
 * mattis.core.legal are the one source of the rules): every function below follows
 * the Python function named in its comment, and tests/rl/test_rl_native.py steps
 * this engine and the Python batched path side by side and compares every array.
 * The deals and the random opponents draw from CPython's Mersenne Twister, seeded as
 * random.Random(seed) seeds it, with random.shuffle's and _randbelow's draws: the
 * same games for the same seeds.  The heuristic opponents draw no numbers: their moves
 * follow mattis.bots.heuristic.HeuristicBot (mattis.bots.policy's choices with
 * DEFAULT_KNOBS, mattis.bots.vary.CycleGuard), one bot per seat and episode.  Wrapped by mattis.rl.batched.BatchedGames. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

/* The hash of this file that setup.py builds it with (mattis._build.source_hash):
 * mattis.rl.batched uses the engine only if it equals the hash of the _native.c beside
 * it, so an edited file never runs as a stale build.  A build by hand without it is
 * treated as stale. */
#ifndef MATTIS_NATIVE_SOURCE
#define MATTIS_NATIVE_SOURCE ""
#endif
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* ----------------------------------------------------------------- MT19937 */
#define MT_N 624
#define MT_M 397

typedef struct {
    uint32_t mt[MT_N];
    int mti;
} MT;

static void mt_init(MT *r, uint32_t s) {
    uint32_t *mt = r->mt;
    mt[0] = s;
    for (int i = 1; i < MT_N; i++) mt[i] = 1812433253U * (mt[i - 1] ^ (mt[i - 1] >> 30)) + (uint32_t)i;
    r->mti = MT_N;
}

/* random.Random(seed) for a non-negative int below 2**64 (init_by_array of its 32-bit words) */
static void mt_seed(MT *r, uint64_t seed) {
    uint32_t key[2];
    int klen;
    key[0] = (uint32_t)seed;
    key[1] = (uint32_t)(seed >> 32);
    klen = key[1] ? 2 : 1;
    mt_init(r, 19650218U);
    uint32_t *mt = r->mt;
    int i = 1, j = 0;
    int k = MT_N > klen ? MT_N : klen;
    for (; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525U)) + key[j] + (uint32_t)j;
        i++;
        j++;
        if (i >= MT_N) { mt[0] = mt[MT_N - 1]; i = 1; }
        if (j >= klen) j = 0;
    }
    for (k = MT_N - 1; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941U)) - (uint32_t)i;
        i++;
        if (i >= MT_N) { mt[0] = mt[MT_N - 1]; i = 1; }
    }
    mt[0] = 0x80000000U;
    r->mti = MT_N;
}

static uint32_t mt_next(MT *r) {
    static const uint32_t mag01[2] = {0x0U, 0x9908b0dfU};
    uint32_t y;
    uint32_t *mt = r->mt;
    if (r->mti >= MT_N) {
        int kk;
        for (kk = 0; kk < MT_N - MT_M; kk++) {
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
            mt[kk] = mt[kk + MT_M] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        for (; kk < MT_N - 1; kk++) {
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
            mt[kk] = mt[kk + (MT_M - MT_N)] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        y = (mt[MT_N - 1] & 0x80000000U) | (mt[0] & 0x7fffffffU);
        mt[MT_N - 1] = mt[MT_M - 1] ^ (y >> 1) ^ mag01[y & 0x1U];
        r->mti = 0;
    }
    y = mt[r->mti++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

static int bitlen(uint32_t n) { int k = 0; while (n) { k++; n >>= 1; } return k; }

/* random.Random._randbelow(n) by getrandbits (n below 2**32): batch._below */
static int mt_below(MT *r, int n) {
    int k = bitlen((uint32_t)n);
    uint32_t v = mt_next(r) >> (32 - k);
    while (v >= (uint32_t)n) v = mt_next(r) >> (32 - k);
    return (int)v;
}

/* ------------------------------------------------------------------ a game */
enum { COLLECT = 1, SHED = 2, OVER = 3 };
enum { PLAYING = 0, WAITING = 1, TERMINATED = 2, TRUNCATED = 3, ILLEGAL = 4 };
enum { END_NONE = 0, END_NORMAL, END_REPETITION, END_CAP, END_STUCK };
/* a move: a card 0..51, MV_CHANCE, MV_PICKUP, or MV_SEQ + 16 * lowest card + length */
enum { MV_CHANCE = 52, MV_PICKUP = 53, MV_SEQ = 64 };
#define MAX_MOVES 512

/* the rule options (mattis.core.rules.Rules), each as the index of its value */
enum { CH_OFF, CH_LEAD, CH_ANY };
enum { TR_LAST_CARD, TR_BOTTOM_UP, TR_SHOWN_WHEN_DRAWN };
enum { P1_ONE_HOLDER, P1_FIRST_EMPTY, P1_STOCK_EMPTY };
enum { EH_PICK_UP, EH_LOSES, EH_SAFE };
enum { PU_FIRST, PU_LAST, PU_LOWEST };
enum { TS_START, TS_ACTIVE, TS_SEATED };
enum { GO_LAID, GO_CLEARED, GO_HOLDERS };
typedef struct {
    int all_tricks, stoting, after_trick, chance, trump, p1end, empty_hand, leader2_last, follow_void, pickup,
        pickup_optional, pickup_run, trick_size, going_out, sequences, empty_fighter_drop, leftovers_shown, discard;
} RulesC;
#define RULE_FIELDS 18

typedef struct {
    uint64_t hash;
    uint64_t hands[6];
    int8_t turn, need, pending, ntab;
    uint64_t tab[52];
    int count;
} Rep;

typedef struct {
    int phase, turn, dealer, seat, status, end_reason;
    double reward;
    uint64_t hands[6], piles[6], known[6], laid[6], laid_any, aside, last_trick;
    uint8_t stock[52];
    int nstock;
    int trump, trump_card, trump_holder;
    uint8_t trick_seat[64], trick_card[64];
    int ntrick, trick_leader;
    int round_seats[6], nround, round_idx;
    uint8_t rl_card[8];
    uint8_t rl_seat[8];
    int nrl, fighting;
    int tricks_won[6], last_winner;
    uint8_t t2_seat[52];
    uint64_t t2[52];
    int nt2, trick_need, in_game, pending;
    int finished[6], nfin, ranked[6], nranked, losers[6], nlos;
    int p2_moves, cur_rep;
    Rep *rep;
    int nrep, caprep;
    int random_seat[6];
    MT rng[6];
    /* (kept by start's reset, and no part of a mirror's game) each seat's opponent: a
     * BOT_RANDOM or BOT_HEURISTIC; the heuristic seats' cycle guards' memory */
    int bot[6];
    uint64_t *seen;
    int nseen, capseen;
} Game;

typedef struct {
    PyObject_HEAD
    int games, n, zero_sum, cap, size, actions;
    RulesC r;
    Game *g;
    Py_buffer obs, mask, fin, rew, term, trunc, ill;
    int at[29];
    int cidx[52];
    int card_action[52];
    int seq_action[52 * 16];
    int chance_action, pickup_action;
    int *action_move;
    long long decisions;
} Engine;

static int popc(uint64_t m) { return __builtin_popcountll(m); }
static int lowc(uint64_t m) { return __builtin_ctzll(m); }
static int highc(uint64_t m) { return 63 - __builtin_clzll(m); }
static uint64_t move_mask(int mv) {
    if (mv < 52) return 1ULL << mv;
    int lo = (mv - MV_SEQ) / 16, len = (mv - MV_SEQ) % 16;
    return ((1ULL << len) - 1) << lo;
}

static int in_list(const int *xs, int k, int s) {
    for (int i = 0; i < k; i++) if (xs[i] == s) return 1;
    return 0;
}

static void p1_advance(Engine *e, Game *g);
static void start_trick(Engine *e, Game *g, int leader);
static void p2_turn(Engine *e, Game *g, int seat);

/* legal.chance_floor */
static int chance_floor(Engine *e) { return e->r.trump == TR_LAST_CARD ? 2 : 1; }

/* legal._suit_entries: the singles of a 13-bit pattern of ``suit``, then its sequences */
static int suit_entries(Engine *e, int suit, int bits, int *out, int k) {
    int base = 13 * suit;
    for (int r = 0; r < 13; r++) if (bits >> r & 1) out[k++] = base + r;
    int m = e->r.sequences;
    if (!m) return k;
    int r = 0;  /* cards.sequence_spans */
    while (bits >> r) {
        if (!(bits >> r & 1)) { r++; continue; }
        int st = r;
        while (bits >> r & 1) r++;
        for (int a = st; a < r; a++)
            for (int b = a + m; b <= r; b++) out[k++] = MV_SEQ + 16 * (base + a) + (b - a);
    }
    return k;
}

/* legal.phase1_moves / phase2_moves, in their order; returns the count */
static int legal_moves(Engine *e, Game *g, int *out) {
    int k = 0;
    if (g->phase == COLLECT) {
        uint64_t h = g->hands[g->turn];
        for (int c = 0; c < 52; c++) if (h >> c & 1) out[k++] = c;
        int leading = g->fighting || g->nrl == 0;
        int ch = e->r.chance;
        if (g->nstock >= chance_floor(e) && (!h || ch == CH_ANY || (ch == CH_LEAD && leading))) out[k++] = MV_CHANCE;
        return k;
    }
    if (g->phase == SHED) {
        uint64_t h = g->hands[g->turn];
        if (!g->nt2) {
            if (!h) return 0;
            for (int s = 0; s < 4; s++) k = suit_entries(e, s, (int)(h >> (13 * s) & 0x1FFF), out, k);
            return k;
        }
        uint64_t top = g->t2[g->nt2 - 1];
        int ts = lowc(top) / 13, above = highc(top) % 13 + 1;
        int held = (int)(h >> (13 * ts) & 0x1FFF);
        int sb = held >> above << above, tb = 0;
        if (ts != g->trump && g->trump >= 0 && (!e->r.follow_void || !held)) tb = (int)(h >> (13 * g->trump) & 0x1FFF);
        k = suit_entries(e, ts, sb, out, k);
        if (tb) k = suit_entries(e, g->trump, tb, out, k);
        if (!k || e->r.pickup_optional) out[k++] = MV_PICKUP;
        return k;
    }
    return 0;
}

/* State._took_last */
static void took_last(Engine *e, Game *g, int seat, int card) {
    g->trump_holder = seat;
    if (g->trump_card < 0) {
        g->trump_card = card;
        if (e->r.trump != TR_LAST_CARD) g->trump = card / 13;
    }
}

/* State._draw_up (hand_size 3) */
static void draw_up(Engine *e, Game *g, int seat) {
    uint64_t h = g->hands[seat];
    while (g->nstock && popc(h) < 3) {
        if (g->nstock == 1) {
            int c = g->stock[--g->nstock];
            took_last(e, g, seat, c);
            if (e->r.trump != TR_LAST_CARD) {
                h |= 1ULL << c;
                g->known[seat] |= 1ULL << c;
            }
            break;
        }
        h |= 1ULL << g->stock[--g->nstock];
    }
    g->hands[seat] = h;
}

static void over(Game *g, int reason) {
    g->phase = OVER;
    g->turn = -1;
    g->end_reason = reason;
}

/* ------------------------------------------------------------ repetition */
static int rep_need(Engine *e, Game *g) { return e->r.trick_size == TS_START ? g->trick_need : 0; }

static uint64_t rep_hash(Engine *e, Game *g) {
    uint64_t x = 1469598103934665603ULL;
    x = (x ^ (uint64_t)(g->turn + 7)) * 1099511628211ULL;
    x = (x ^ (uint64_t)rep_need(e, g)) * 1099511628211ULL;
    x = (x ^ (uint64_t)g->pending) * 1099511628211ULL;
    for (int s = 0; s < e->n; s++) {
        x ^= g->hands[s] + 0x9e3779b97f4a7c15ULL * (uint64_t)(s + 1);
        x *= 0xff51afd7ed558ccdULL;
        x ^= x >> 29;
    }
    for (int i = 0; i < g->nt2; i++) { x ^= g->t2[i]; x *= 0xc4ceb9fe1a85ec53ULL; x ^= x >> 31; }
    return x ^ (uint64_t)g->nt2 << 56;
}

/* rep[repetition_key(state)] += 1 (legal.repetition_key: the player to act, the trick
 * size under trick_size=start, who waits to go out, the hands, each table entry's
 * cards); returns the new count */
static int rep_bump(Engine *e, Game *g) {
    int n = e->n;
    uint64_t h = rep_hash(e, g);
    int need = rep_need(e, g);
    for (int i = 0; i < g->nrep; i++) {
        Rep *r = &g->rep[i];
        if (r->hash != h || r->turn != g->turn || r->need != need || r->pending != g->pending || r->ntab != g->nt2)
            continue;
        if (memcmp(r->hands, g->hands, sizeof(uint64_t) * (size_t)n)) continue;
        if (memcmp(r->tab, g->t2, sizeof(uint64_t) * (size_t)g->nt2)) continue;
        return ++r->count;
    }
    if (g->nrep == g->caprep) {
        int cap = g->caprep ? 2 * g->caprep : 64;
        Rep *nr = (Rep *)PyMem_Realloc(g->rep, sizeof(Rep) * (size_t)cap);
        if (!nr) {
            PyErr_NoMemory();
            return 1;
        }
        g->rep = nr;
        g->caprep = cap;
    }
    Rep *r = &g->rep[g->nrep++];
    memset(r, 0, sizeof(Rep));
    r->hash = h;
    r->turn = (int8_t)g->turn;
    r->need = (int8_t)need;
    r->pending = (int8_t)g->pending;
    r->ntab = (int8_t)g->nt2;
    memcpy(r->hands, g->hands, sizeof(uint64_t) * (size_t)n);
    memcpy(r->tab, g->t2, sizeof(uint64_t) * (size_t)g->nt2);
    r->count = 1;
    return 1;
}

/* State._end_by_ranking */
static void end_by_ranking(Engine *e, Game *g, int reason, int first) {
    int n = e->n, rest[6], k = 0;
    for (int s = 0; s < n; s++) if (g->in_game >> s & 1) rest[k++] = s;
    /* sort by (cards held, -(sum of ranks), -((s - first) % n)) ascending */
    long key[6];
    for (int i = 0; i < k; i++) {
        int s = rest[i];
        uint64_t h = g->hands[s];
        int cnt = popc(h), sum = 0;
        for (int c = 0; c < 52; c++) if (h >> c & 1) sum += c % 13;
        key[i] = ((long)cnt << 20) - ((long)sum << 4) - (long)((s - first + n) % n);
    }
    for (int i = 1; i < k; i++) {
        for (int j = i; j > 0 && key[j - 1] > key[j]; j--) {
            long t = key[j]; key[j] = key[j - 1]; key[j - 1] = t;
            int u = rest[j]; rest[j] = rest[j - 1]; rest[j - 1] = u;
        }
    }
    for (int i = 0; i < k - 1; i++) g->ranked[g->nranked++] = rest[i];
    if (k) g->losers[g->nlos++] = rest[k - 1];
    g->in_game = 0;
    g->pending = 0;
    over(g, reason);
}

/* ---------------------------------------------------------------- phase 2 */
/* State._begin_phase2 */
static void begin_phase2(Engine *e, Game *g, int leader) {
    int n = e->n;
    if (e->r.empty_hand == EH_LOSES) {
        for (int j = 0; j < n; j++) {
            int s = (g->dealer + 1 + j) % n;
            if (g->tricks_won[s] == 0) {
                g->losers[g->nlos++] = s;
                g->in_game &= ~(1 << s);
            }
        }
        if (popc((uint64_t)g->in_game) == 1) {
            g->finished[g->nfin++] = bitlen((uint32_t)g->in_game) - 1;
            g->in_game = 0;
            over(g, END_NORMAL);
            return;
        }
    } else if (e->r.empty_hand == EH_SAFE) {
        for (int j = 0; j < n; j++) {
            int s = (g->dealer + 1 + j) % n;
            if (!g->hands[s]) {
                g->finished[g->nfin++] = s;
                g->in_game &= ~(1 << s);
            }
        }
    }
    p2_turn(e, g, leader);
    if (g->phase == SHED) {
        g->nrep = 0;
        g->cur_rep = rep_bump(e, g);
    }
}

/* the seats waiting to go out with an entry in table[lo:hi], ordered by their last entry's index */
static int pending_order(Game *g, int pend, int *out) {
    int last[6], k = 0;
    for (int q = 0; q < 6; q++) last[q] = -1;
    for (int i = 0; i < g->nt2; i++) if (pend >> g->t2_seat[i] & 1) last[g->t2_seat[i]] = i;
    for (int i = 0; i < g->nt2; i++) {
        int q = g->t2_seat[i];
        if (last[q] == i) out[k++] = q;
    }
    return k;
}

/* State._p2_last_holder (going_out=holders) */
static int p2_last_holder(Engine *e, Game *g) {
    int n = e->n, in_game = g->in_game, holder = -1;
    for (int q = 0; q < n; q++) {
        if ((in_game >> q & 1) && g->hands[q]) {
            if (holder >= 0) return 0;
            holder = q;
        }
    }
    if (holder < 0 || popc((uint64_t)in_game) < 2) return 0;
    int gone[6];
    int k = pending_order(g, g->pending, gone), waiting = 0;
    for (int i = 0; i < k; i++) waiting |= 1 << gone[i];
    for (int j = 1; j < n; j++) {
        int q = (holder + j) % n;
        if ((in_game >> q & 1) && !(waiting >> q & 1)) gone[k++] = q;
    }
    for (int i = 0; i < k; i++) g->finished[g->nfin++] = gone[i];
    g->losers[g->nlos++] = holder;
    g->in_game = 0;
    g->pending = 0;
    over(g, END_NORMAL);
    return 1;
}

/* State._p2_turn */
static void p2_turn(Engine *e, Game *g, int seat) {
    int n = e->n;
    if (e->r.going_out == GO_HOLDERS && p2_last_holder(e, g)) return;
    int in_game = g->in_game;
    if (popc((uint64_t)in_game) <= 1) {
        if (in_game) g->losers[g->nlos++] = bitlen((uint32_t)in_game) - 1;
        over(g, END_NORMAL);
        return;
    }
    int s = seat % n;
    for (int i = 0; i < n; i++) {
        if ((in_game >> s & 1) && (g->hands[s] || g->nt2)) {
            g->turn = s;
            return;
        }
        s = (s + 1) % n;
    }
    end_by_ranking(e, g, END_STUCK, seat % n);
}

/* State._p2_active */
static int p2_active(Engine *e, Game *g) {
    if (e->r.going_out != GO_HOLDERS) return popc((uint64_t)g->in_game);
    int count = 0;
    for (int q = 0; q < e->n; q++) if ((g->in_game >> q & 1) && g->hands[q]) count++;
    return count;
}

/* legal.trick_complete_at */
static int trick_complete_at(Engine *e, Game *g) {
    if (e->r.trick_size == TS_START) return g->trick_need;
    return e->r.trick_size == TS_ACTIVE ? p2_active(e, g) : e->n;
}

/* State._end_phase1 */
static void end_phase1(Engine *e, Game *g, int taker) {
    int n = e->n;
    for (int i = 0; i < g->ntrick; i++) {
        g->hands[g->trick_seat[i]] |= 1ULL << g->trick_card[i];
        g->known[g->trick_seat[i]] |= 1ULL << g->trick_card[i];
    }
    g->ntrick = 0;
    g->nround = 0;
    g->nrl = 0;
    g->fighting = 0;
    if (e->r.leftovers_shown)
        for (int s = 0; s < n; s++) g->known[s] |= g->hands[s];
    while (g->nstock) {
        int c = g->stock[--g->nstock];
        if (!g->nstock) {
            took_last(e, g, taker, c);
            if (e->r.trump == TR_LAST_CARD) break;
            g->known[taker] |= 1ULL << c;
        }
        g->hands[taker] |= 1ULL << c;
    }
    g->trump = g->trump_card / 13;
    if (e->r.trump == TR_LAST_CARD) {
        g->hands[g->trump_holder] |= 1ULL << g->trump_card;
        g->known[g->trump_holder] |= 1ULL << g->trump_card;
    }
    for (int s = 0; s < n; s++) {
        g->hands[s] |= g->piles[s];
        g->known[s] |= g->piles[s];
        g->piles[s] = 0;
    }
    g->phase = SHED;
    int lead = g->trump_holder;
    if (e->r.leader2_last && g->last_winner >= 0) lead = g->last_winner;
    begin_phase2(e, g, lead);
}

/* ---------------------------------------------------------------- phase 1 */
/* State._win_trick */
static void win_trick(Engine *e, Game *g, int winner) {
    uint64_t m = 0;
    for (int i = 0; i < g->ntrick; i++) m |= 1ULL << g->trick_card[i];
    g->piles[winner] |= m;
    g->tricks_won[winner]++;
    g->last_winner = winner;
    g->last_trick = m;
    g->ntrick = 0;
    if (e->r.after_trick)
        for (int j = 0; j < e->n; j++) draw_up(e, g, (winner + j) % e->n);
    start_trick(e, g, winner);
}

/* State._start_trick */
static void start_trick(Engine *e, Game *g, int leader) {
    int n = e->n;
    g->ntrick = 0;
    g->nrl = 0;
    g->round_idx = 0;
    g->fighting = 0;
    if (e->r.p1end == P1_STOCK_EMPTY && !g->nstock) {
        end_phase1(e, g, leader);
        return;
    }
    if (e->r.p1end != P1_FIRST_EMPTY) {
        int holders = 0;
        for (int s = 0; s < n; s++) if (g->hands[s]) holders++;
        if (holders <= 1) {
            end_phase1(e, g, leader);
            return;
        }
        while (!g->hands[leader]) leader = (leader + 1) % n;
        if (!e->r.all_tricks) {
            int resp = (leader + 1) % n;
            while (!g->hands[resp]) resp = (resp + 1) % n;
            g->round_seats[0] = leader;
            g->round_seats[1] = resp;
            g->nround = 2;
        } else {
            for (int j = 0; j < n; j++) g->round_seats[j] = (leader + j) % n;
            g->nround = n;
        }
    } else if (!e->r.all_tricks) {
        g->round_seats[0] = leader;
        g->round_seats[1] = (leader + 1) % n;
        g->nround = 2;
    } else {
        for (int j = 0; j < n; j++) g->round_seats[j] = (leader + j) % n;
        g->nround = n;
    }
    g->trick_leader = leader;
    p1_advance(e, g);
}

/* State._can_lay */
static int can_lay(Engine *e, Game *g, int seat) {
    return g->hands[seat] || (g->nstock >= chance_floor(e) && !e->r.empty_fighter_drop);
}

/* State._p1_advance */
static void p1_advance(Engine *e, Game *g) {
    int stuck = -1, n = e->n;
    for (int guard = 0; guard < 1000; guard++) {
        if (g->round_idx < g->nround) {
            int s = g->round_seats[g->round_idx];
            if (g->hands[s] || can_lay(e, g, s)) {
                g->turn = s;
                return;
            }
            if (e->r.p1end == P1_FIRST_EMPTY) {
                end_phase1(e, g, s);
                return;
            }
            if (stuck < 0) stuck = s;
            for (int i = g->round_idx; i + 1 < g->nround; i++) g->round_seats[i] = g->round_seats[i + 1];
            g->nround--;
            if (g->fighting && g->nround == 1) {
                int last = g->round_seats[0];
                if (g->round_idx || can_lay(e, g, last)) win_trick(e, g, last);
                else end_phase1(e, g, stuck);
                return;
            }
            continue;
        }
        /* legal.round_winners */
        int best = -1, fighters[8], nf = 0;
        if (e->r.stoting && !g->fighting) {
            int seen = 0;
            for (int i = 0; i < g->nrl; i++) {
                int r = g->rl_card[i] % 13;
                if ((seen >> r & 1) && r > best) best = r;
                seen |= 1 << r;
            }
        }
        if (best < 0)
            for (int i = 0; i < g->nrl; i++) if (g->rl_card[i] % 13 > best) best = g->rl_card[i] % 13;
        for (int i = 0; i < g->nrl; i++) if (g->rl_card[i] % 13 == best) fighters[nf++] = g->rl_seat[i];
        if (nf == 1) {
            win_trick(e, g, fighters[0]);
            return;
        }
        int lead = g->trick_leader;
        for (int i = 1; i < nf; i++) {
            for (int j = i; j > 0 && (fighters[j - 1] - lead + n) % n > (fighters[j] - lead + n) % n; j--) {
                int t = fighters[j]; fighters[j] = fighters[j - 1]; fighters[j - 1] = t;
            }
        }
        for (int i = 0; i < nf; i++) g->round_seats[i] = fighters[i];
        g->nround = nf;
        g->round_idx = 0;
        g->nrl = 0;
        g->fighting = 1;
    }
}

/* State._p1_lay */
static void p1_lay(Engine *e, Game *g, int seat, int card, int from_stock) {
    if (from_stock && !g->nstock) took_last(e, g, seat, card);
    g->trick_seat[g->ntrick] = (uint8_t)seat;
    g->trick_card[g->ntrick++] = (uint8_t)card;
    g->rl_seat[g->nrl] = (uint8_t)seat;
    g->rl_card[g->nrl++] = (uint8_t)card;
    g->round_idx++;
    if (!from_stock && !e->r.after_trick) draw_up(e, g, seat);
    p1_advance(e, g);
}

/* legal.pickup_span: which entries table[*i:*j] a pickup takes */
static void pickup_span(Engine *e, Game *g, int *i, int *j) {
    if (e->r.pickup == PU_FIRST) { *i = 0; *j = 1; return; }
    if (e->r.pickup == PU_LAST) {
        int k = g->nt2 - 1;
        if (e->r.sequences && e->r.pickup_run) {
            while (k > 0) {
                int below = highc(g->t2[k - 1]), cur = lowc(g->t2[k]);
                if (below / 13 == cur / 13 && below % 13 + 1 == cur % 13) k--;
                else break;
            }
        }
        *i = k;
        *j = g->nt2;
        return;
    }
    int best = 0;
    for (int k = 1; k < g->nt2; k++) if (lowc(g->t2[k]) % 13 < lowc(g->t2[best]) % 13) best = k;
    *i = best;
    *j = best + 1;
}

/* State._p2_go_out (going_out=cleared/holders: the trick is cleared) */
static void p2_go_out(Game *g) {
    int order[6];
    int k = pending_order(g, g->pending, order);
    for (int i = 0; i < k; i++) {
        if (popc((uint64_t)g->in_game) <= 1) break;
        g->finished[g->nfin++] = order[i];
        g->in_game &= ~(1 << order[i]);
    }
    g->pending = 0;
}

/* State.apply of a legal move */
static void apply_move(Engine *e, Game *g, int move) {
    int seat = g->turn;
    e->decisions++;
    if (g->phase == COLLECT) {
        int card;
        if (move == MV_CHANCE) {
            card = g->stock[--g->nstock];
            g->laid[seat] |= 1ULL << card;
            g->laid_any |= 1ULL << card;
            p1_lay(e, g, seat, card, 1);
        } else {
            card = move;
            g->laid[seat] |= 1ULL << card;
            g->laid_any |= 1ULL << card;
            g->hands[seat] &= ~(1ULL << card);
            g->known[seat] &= ~(1ULL << card);
            p1_lay(e, g, seat, card, 0);
        }
        return;
    }
    if (move == MV_PICKUP) {
        /* State._p2_pickup */
        int i, j;
        pickup_span(e, g, &i, &j);
        int pend = g->pending;
        if (pend) {
            pend &= ~(1 << seat);
            int last[6];
            for (int q = 0; q < 6; q++) last[q] = -1;
            for (int k = 0; k < g->nt2; k++) if (pend >> g->t2_seat[k] & 1) last[g->t2_seat[k]] = k;
            for (int q = 0; q < 6; q++) if (last[q] >= i && last[q] < j) pend &= ~(1 << q);
            g->pending = pend;
        }
        uint64_t m = 0;
        for (int k = i; k < j; k++) m |= g->t2[k];
        for (int k = j; k < g->nt2; k++) {
            g->t2[k - (j - i)] = g->t2[k];
            g->t2_seat[k - (j - i)] = g->t2_seat[k];
        }
        g->nt2 -= j - i;
        g->hands[seat] |= m;
        g->known[seat] |= m;
        if (!g->nt2) g->trick_need = 0;
        p2_turn(e, g, seat + 1);
    } else {
        /* State._p2_play */
        uint64_t mask = move_mask(move);
        g->laid[seat] |= mask;
        g->laid_any |= mask;
        uint64_t h = g->hands[seat] & ~mask;
        g->hands[seat] = h;
        g->known[seat] &= ~mask;
        if (!g->nt2) g->trick_need = popc((uint64_t)g->in_game);
        g->t2_seat[g->nt2] = (uint8_t)seat;
        g->t2[g->nt2++] = mask;
        if (!h) {
            if (e->r.going_out == GO_LAID) {
                g->finished[g->nfin++] = seat;
                g->in_game &= ~(1 << seat);
                g->nrep = 0;
            } else {
                g->pending |= 1 << seat;
            }
        }
        if (popc((uint64_t)g->in_game) > 1 && g->nt2 >= trick_complete_at(e, g)) {
            uint64_t m = 0;
            for (int i = 0; i < g->nt2; i++) m |= g->t2[i];
            g->last_trick = m;
            if (g->pending) p2_go_out(g);
            g->nt2 = 0;
            g->trick_need = 0;
            g->nrep = 0;
            p2_turn(e, g, seat);
        } else {
            p2_turn(e, g, seat + 1);
        }
    }
    /* State._p2_after_move */
    if (g->phase != SHED) return;
    g->p2_moves++;
    if (g->p2_moves >= e->cap) {
        end_by_ranking(e, g, END_CAP, g->turn);
        return;
    }
    int cnt = rep_bump(e, g);
    g->cur_rep = cnt;
    if (cnt >= 3) end_by_ranking(e, g, END_REPETITION, g->turn);
}

/* Batch._fate */
static int fate(Engine *e, Game *g) {
    int seat = g->seat;
    if (in_list(g->losers, g->nlos, seat)) g->reward = -1.0;
    else if (in_list(g->finished, g->nfin, seat) || g->phase == OVER) g->reward = e->zero_sum ? 1.0 : 0.0;
    else return 0;
    g->status = g->end_reason == END_CAP ? TRUNCATED : TERMINATED;
    return 1;
}

/* ---------------------------------------------------------- the easy bot */
/* mattis.bots.heuristic.HeuristicBot (the ``easy`` level), seat by seat: its choices
 * are mattis.bots.policy's with DEFAULT_KNOBS, its memory mattis.bots.vary.CycleGuard.
 * It decides among the legal moves the engine's legal_moves lists (in their order,
 * which breaks the ties as the Python lists do) and draws no numbers. */
enum { BOT_RANDOM = 0, BOT_HEURISTIC = 1 };
/* policy.Knobs' defaults (DEFAULT_KNOBS) */
enum { K_KEEP_RANK = 9, K_CHANCE_ALL_KEEPERS = 1, K_TRUMP_COST = 14, K_SEQ_BONUS = 3, K_SAFE_LEAD_BONUS = 8 };

/* policy._value */
static int card_value(int c, int trump) { return c % 13 + (c / 13 == trump ? 13 : 0); }

/* legal.round_winners: the indices of cards[0..k) still in contention; returns their count */
static int round_winners(Engine *e, const int *cards, int k, int fighting, int *out) {
    int nw = 0;
    if (e->r.stoting && !fighting) {
        int seen = 0, dup = -1;
        for (int i = 0; i < k; i++) {
            int r = cards[i] % 13;
            if ((seen >> r & 1) && r > dup) dup = r;
            seen |= 1 << r;
        }
        if (dup >= 0) {
            for (int i = 0; i < k; i++) if (cards[i] % 13 == dup) out[nw++] = i;
            return nw;
        }
    }
    int best = -1;
    for (int i = 0; i < k; i++) if (cards[i] % 13 > best) best = cards[i] % 13;
    for (int i = 0; i < k; i++) if (cards[i] % 13 == best) out[nw++] = i;
    return nw;
}

/* legal.lay_outcome: 1 ``card`` laid after laid[0..nl) takes the trick, 0 it fights on, -1 it is beaten */
static int lay_outcome(Engine *e, const uint8_t *laid, int nl, int card, int fighting) {
    int cards[16], winners[16];
    for (int i = 0; i < nl; i++) cards[i] = laid[i];
    cards[nl] = card;
    int nw = round_winners(e, cards, nl + 1, fighting, winners);
    if (!in_list(winners, nw, nl)) return -1;
    return nw == 1 ? 1 : 0;
}

/* policy.phase1_choice (the pot: the trick's cards; the round's cards: rl_card) */
static int phase1_choice(Engine *e, Game *g, const int *legal, int k, int trump) {
    int cards[64], nc = 0, can_chance = 0;
    for (int i = 0; i < k; i++) {
        if (legal[i] < 52) cards[nc++] = legal[i];
        else if (legal[i] == MV_CHANCE) can_chance = 1;
    }
    if (!nc) return can_chance ? MV_CHANCE : legal[0];
    /* hand_sorted: by (_value, card) */
    for (int i = 1; i < nc; i++) {
        for (int j = i; j > 0; j--) {
            int a = cards[j - 1], b = cards[j];
            int va = card_value(a, trump), vb = card_value(b, trump);
            if (va < vb || (va == vb && a < b)) break;
            cards[j - 1] = b;
            cards[j] = a;
        }
    }
    int keepers = 1;
    for (int i = 0; i < nc; i++) if (cards[i] % 13 < K_KEEP_RANK) keepers = 0;
    if (!g->nrl) {
        if (can_chance && K_CHANCE_ALL_KEEPERS && keepers) return MV_CHANCE;
        return cards[0];
    }
    int best_in_pot = -1, trump_in_pot = 0;
    for (int i = 0; i < g->ntrick; i++) {
        int c = g->trick_card[i];
        if (c % 13 > best_in_pot) best_in_pot = c % 13;
        if (c / 13 == trump) trump_in_pot = 1;
    }
    int want = best_in_pot >= K_KEEP_RANK || trump_in_pot;
    int fighting = g->fighting && g->nround;
    int above = -1, below = -1;  /* the cheapest card that takes the trick (by rank, then value), the first beaten */
    for (int i = 0; i < nc; i++) {
        int c = cards[i], res = lay_outcome(e, g->rl_card, g->nrl, c, fighting);
        if (res > 0) {
            if (above < 0 || c % 13 < above % 13
                || (c % 13 == above % 13 && card_value(c, trump) < card_value(above, trump)))
                above = c;
        } else if (res < 0 && below < 0) {
            below = c;
        }
    }
    if (want && above >= 0) return above;
    if (below >= 0) return below;
    if (can_chance && keepers) return MV_CHANCE;
    if (above >= 0) return above;
    return cards[0];
}

/* legal.answer_mask: the cards of ``hand`` that may begin an entry answering ``top`` */
static uint64_t answer_mask(Engine *e, uint64_t hand, uint64_t top, int trump) {
    int ts = lowc(top) / 13, above = highc(top) % 13 + 1;
    int held = (int)(hand >> (13 * ts) & 0x1FFF);
    uint64_t sb = (uint64_t)(held >> above << above), tb = 0;
    if (ts != trump && trump >= 0 && (!e->r.follow_void || !held)) tb = hand >> (13 * trump) & 0x1FFF;
    return sb << (13 * ts) | (tb ? tb << (13 * trump) : 0);
}

/* policy.phase2_choice (next_hand: the next player's known hand, -1 when not all known) */
static int phase2_choice(Engine *e, const int *legal, int k, int table_empty, int trump, int64_t next_hand,
                         int my_count, int safe_lead_bonus) {
    int best = -1, best_cost = 1000000000;
    int64_t nxt = table_empty && e->r.pickup == PU_FIRST && next_hand >= 0 ? next_hand : -1;
    for (int i = 0; i < k; i++) {
        int m = legal[i];
        if (m == MV_PICKUP) continue;
        uint64_t cards = move_mask(m);
        int top = highc(cards), len = popc(cards);
        int cost = top % 13 + (top / 13 == trump ? K_TRUMP_COST : 0) - K_SEQ_BONUS * (len - 1);
        if (len == my_count) cost -= 100;
        if (nxt >= 0 && answer_mask(e, (uint64_t)nxt, cards, trump) == 0) cost -= safe_lead_bonus;
        if (cost < best_cost) { best = m; best_cost = cost; }
    }
    return best < 0 ? MV_PICKUP : best;
}

/* vary.seen_key of the seat to act, as words: its hand; every hand's size, who is in
 * and who waits; the seat, the trick size, the entries; then each entry's cards.
 * Returns the number of words (3 + entries). */
static int seen_key(Engine *e, Game *g, uint64_t *key) {
    uint64_t counts = 0;
    for (int s = 0; s < e->n; s++) counts |= (uint64_t)popc(g->hands[s]) << (8 * s);
    int need = g->nt2 ? trick_complete_at(e, g) : 0;  /* State.trick_size_now */
    key[0] = g->hands[g->turn];
    key[1] = counts | (uint64_t)g->in_game << 48 | (uint64_t)g->pending << 56;
    key[2] = (uint64_t)g->turn | (uint64_t)need << 8 | (uint64_t)g->nt2 << 16;
    for (int i = 0; i < g->nt2; i++) key[3 + i] = g->t2[i];
    return 3 + g->nt2;
}

/* vary.CycleGuard.avoid: the moves the seat to act made before in this position, when
 * it occurred before (repetitions >= 2); returns their count */
static int guard_avoid(Engine *e, Game *g, int *out) {
    int reps = g->phase == SHED && g->nrep ? g->cur_rep : 0;  /* State.repetitions */
    if (g->phase != SHED || reps < 2) return 0;
    uint64_t key[3 + 52];
    int kw = seen_key(e, g, key), k = 0;
    for (int at = 0; at < g->nseen;) {
        uint64_t *entry = g->seen + at;
        int words = 3 + (int)(entry[2] >> 16 & 0xFF);
        if (words == kw && entry[0] == key[0] && entry[1] == key[1] && (entry[2] & 0xFFFFFFFFU) == key[2]
            && !memcmp(entry + 3, key + 3, sizeof(uint64_t) * (size_t)(kw - 3)) && k < MAX_MOVES)
            out[k++] = (int)(entry[2] >> 32);
        at += words;
    }
    return k;
}

/* vary.CycleGuard.note: remember the move the seat to act makes here (phase 2, a choice) */
static void guard_note(Engine *e, Game *g, int k, int move) {
    if (g->phase != SHED || k <= 1) return;
    uint64_t key[3 + 52];
    int kw = seen_key(e, g, key);
    if (g->nseen + kw > g->capseen) {
        int cap = g->capseen ? 2 * g->capseen : 1024;
        while (cap < g->nseen + kw) cap *= 2;
        uint64_t *ns = (uint64_t *)PyMem_Realloc(g->seen, sizeof(uint64_t) * (size_t)cap);
        if (!ns) {
            PyErr_NoMemory();
            return;
        }
        g->seen = ns;
        g->capseen = cap;
    }
    key[2] |= (uint64_t)(uint32_t)move << 32;
    memcpy(g->seen + g->nseen, key, sizeof(uint64_t) * (size_t)kw);
    g->nseen += kw;
}

/* HeuristicBot.act: the guard's choices (CycleGuard.choices), then heuristic_move
 * among them, under undertrekk leading what the next player can beat while varying */
static int heuristic_act(Engine *e, Game *g, const int *legal, int k) {
    int avoid[MAX_MOVES], choices[MAX_MOVES];
    int na = guard_avoid(e, g, avoid), nc = 0;
    const int *from = legal;
    if (na) {
        int rest[MAX_MOVES], nr = 0, used = 0;
        for (int i = 0; i < k; i++) if (!in_list(avoid, na, legal[i])) rest[nr++] = legal[i];
        if (nr) {
            for (int i = 0; i < na; i++) {
                if (avoid[i] == MV_PICKUP || avoid[i] == MV_CHANCE) continue;
                uint64_t m = move_mask(avoid[i]);
                while (m) { used |= 1 << (lowc(m) / 13); m &= m - 1; }
            }
            for (int i = 0; i < nr; i++) {
                int m = rest[i], clash = 0;
                if (m != MV_PICKUP && m != MV_CHANCE) {
                    uint64_t cm = move_mask(m);
                    while (cm) { if (used >> (lowc(cm) / 13) & 1) clash = 1; cm &= cm - 1; }
                }
                if (!clash) choices[nc++] = m;
            }
            if (!nc) { memcpy(choices, rest, sizeof(int) * (size_t)nr); nc = nr; }
            from = choices;
        } else {
            nc = k;
        }
    } else {
        nc = k;
    }
    int move, seat = g->turn;
    if (nc == 1) move = from[0];  /* heuristic_move: the only choice */
    else if (g->phase == COLLECT) move = phase1_choice(e, g, from, nc, g->trump);
    else {
        int in_game = g->in_game, n = e->n, nxt = seat;  /* Observation.next_seat_in */
        for (int j = 1; j < n; j++) {
            int s = (seat + j) % n;
            if (in_game >> s & 1) { nxt = s; break; }
        }
        int64_t next_hand = popc(g->known[nxt]) == popc(g->hands[nxt]) ? (int64_t)g->known[nxt] : -1;
        move = phase2_choice(e, from, nc, !g->nt2, g->trump, next_hand, popc(g->hands[seat]),
                             na ? -K_SAFE_LEAD_BONUS : K_SAFE_LEAD_BONUS);
    }
    guard_note(e, g, k, move);
    return move;
}

/* Batch._settle */
static void settle(Engine *e, Game *g, int after_learner) {
    int moves[MAX_MOVES];
    if (after_learner && fate(e, g)) return;
    while (g->phase != OVER && g->turn != g->seat) {
        int to = g->turn;
        int k = legal_moves(e, g, moves);
        /* the random bot: random.Random.choice; the heuristic: HeuristicBot.act */
        apply_move(e, g, g->bot[to] == BOT_HEURISTIC ? heuristic_act(e, g, moves, k) : moves[mt_below(&g->rng[to], k)]);
        if (PyErr_Occurred()) return;
    }
    if (!fate(e, g)) {
        g->status = PLAYING;
        g->reward = 0.0;
    }
}

/* ------------------------------------------------------------------ tensors */
/* block indices of the layout (mattis.core.layout.BLOCKS) */
enum {
    B_PHASE, B_TO_ACT, B_HAND, B_HAND_COUNTS, B_KNOWN, B_PILES, B_TRICKS_WON, B_STOCK, B_SET_ASIDE, B_TRUMP,
    B_TRUMP_CARD, B_HOLDER, B_LEADER, B_TABLE1, B_FIGHTERS, B_TABLE2, B_TOP, B_FIRST, B_T2_COUNT, B_NEED, B_OUT,
    B_IN_GAME, B_FINISHED, B_LOSERS, B_LAST, B_LAID, B_P2_MOVES, B_REPS, B_COUNT
};

static void put_cards(Engine *e, float *row, int at, uint64_t m) {
    while (m) {
        int c = __builtin_ctzll(m);
        row[at + e->cidx[c]] = 1.0f;
        m &= m - 1;
    }
}

static void put_seats(float *row, int at, const int *seats, int k, int me, int n) {
    for (int i = 0; i < k; i++) row[at + (seats[i] - me + n) % n] = 1.0f;
}

static float frac(double v, double scale, double most) {
    double q = v / scale;
    return (float)(q < most ? q : most);
}

/* Batch.write_seat: what ``me`` sees of game g in ``row`` (and its legal actions in
 * ``mrow`` when given and it is to act) */
static void write_seat(Engine *e, Game *g, int me, float *row, uint8_t *mrow) {
    int n = e->n, *at = e->at;
    int collect = g->phase == COLLECT;
    double big = (double)(n * 52);
    memset(row, 0, sizeof(float) * (size_t)e->size);
    row[at[B_PHASE] + g->phase - 1] = 1.0f;
    if (g->phase != OVER) row[at[B_TO_ACT] + (g->turn - me + n) % n] = 1.0f;
    put_cards(e, row, at[B_HAND], g->hands[me]);
    uint64_t known_all = 0;
    for (int r = 0; r < n; r++) {
        int s = (me + r) % n;
        put_cards(e, row, at[B_KNOWN] + 52 * r, g->known[s]);
        known_all |= g->known[s];
        put_cards(e, row, at[B_PILES] + 52 * r, g->piles[s]);
        row[at[B_HAND_COUNTS] + r] = frac(popc(g->hands[s]), 52.0, big);
        row[at[B_TRICKS_WON] + r] = frac(g->tricks_won[s], 26.0, big);
        put_cards(e, row, at[B_LAID] + 52 * r, g->laid[s]);
    }
    row[at[B_STOCK]] = frac(g->nstock, 52.0, big);
    row[at[B_SET_ASIDE]] = frac(popc(g->aside), 52.0, big);
    if (g->trump >= 0) {
        row[at[B_TRUMP] + g->trump] = 1.0f;
        if (g->trump_card >= 0) row[at[B_TRUMP_CARD] + e->cidx[g->trump_card]] = 1.0f;
    }
    if (g->trump_holder >= 0) row[at[B_HOLDER] + (g->trump_holder - me + n) % n] = 1.0f;
    if (collect) {
        row[at[B_LEADER] + (g->trick_leader - me + n) % n] = 1.0f;
        for (int i = 0; i < g->ntrick; i++)
            row[at[B_TABLE1] + 52 * ((g->trick_seat[i] - me + n) % n) + e->cidx[g->trick_card[i]]] = 1.0f;
        if (g->fighting && g->nround) put_seats(row, at[B_FIGHTERS], g->round_seats, g->nround, me, n);
    }
    uint64_t on_table = 0;
    if (g->nt2) {
        for (int i = 0; i < g->nt2; i++) {
            put_cards(e, row, at[B_TABLE2] + 52 * ((g->t2_seat[i] - me + n) % n), g->t2[i]);
            on_table |= g->t2[i];
        }
        put_cards(e, row, at[B_TOP], g->t2[g->nt2 - 1]);
        put_cards(e, row, at[B_FIRST], g->t2[0]);
    }
    row[at[B_T2_COUNT]] = frac(g->nt2, (double)n, big);
    row[at[B_NEED]] = frac(g->phase == SHED && g->nt2 ? trick_complete_at(e, g) : 0, (double)n, big);
    if (!collect) put_cards(e, row, at[B_OUT], g->laid_any & ~on_table & ~known_all);
    int in_game = collect ? (1 << n) - 1 : g->in_game;
    for (int s = 0; s < n; s++) if (in_game >> s & 1) row[at[B_IN_GAME] + (s - me + n) % n] = 1.0f;
    put_seats(row, at[B_FINISHED], g->finished, g->nfin, me, n);
    put_seats(row, at[B_LOSERS], g->losers, g->nlos, me, n);
    put_cards(e, row, at[B_LAST], g->last_trick);
    row[at[B_P2_MOVES]] = frac(g->p2_moves, (double)e->cap, 1.0);
    row[at[B_REPS]] = frac(g->phase == SHED && g->nrep ? g->cur_rep : 0, 3.0, 1.0);
    if (mrow) {
        memset(mrow, 0, (size_t)e->actions);
        if (g->status == PLAYING && g->turn == me) {
            int moves[MAX_MOVES];
            int k = legal_moves(e, g, moves);
            for (int i = 0; i < k; i++) {
                int m = moves[i];
                mrow[m == MV_CHANCE ? e->chance_action : m == MV_PICKUP ? e->pickup_action
                     : m < 52 ? e->card_action[m] : e->seq_action[m - MV_SEQ]] = 1;
            }
        }
    }
}

static void write_game(Engine *e, int i) {
    Game *g = &e->g[i];
    write_seat(e, g, g->seat, (float *)e->obs.buf + (size_t)i * (size_t)e->size,
               (uint8_t *)e->mask.buf + (size_t)i * (size_t)e->actions);
}

/* ------------------------------------------------------------------ Python */
static void Engine_dealloc(Engine *self) {
    if (self->g) {
        for (int i = 0; i < self->games; i++) {
            PyMem_Free(self->g[i].rep);
            PyMem_Free(self->g[i].seen);
        }
        PyMem_Free(self->g);
    }
    PyMem_Free(self->action_move);
    Py_buffer *bufs[7] = {&self->obs, &self->mask, &self->fin, &self->rew, &self->term, &self->trunc, &self->ill};
    for (int k = 0; k < 7; k++) if (bufs[k]->obj) PyBuffer_Release(bufs[k]);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int get_buf(PyObject *o, Py_buffer *b, Py_ssize_t bytes, const char *what) {
    if (PyObject_GetBuffer(o, b, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) return -1;
    if (b->len != bytes) {
        PyErr_Format(PyExc_ValueError, "%s: need %zd bytes, got %zd", what, bytes, b->len);
        return -1;
    }
    return 0;
}

static int int_list(PyObject *seq, int *out, Py_ssize_t k, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != k) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: need %zd items", what, k);
        return -1;
    }
    for (Py_ssize_t i = 0; i < k; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) { Py_DECREF(fast); return -1; }
        out[i] = (int)v;
    }
    Py_DECREF(fast);
    return 0;
}

/* the rule set, tensor layout and action numbering (shared by the batched engine and
 * the mirrors): players, rules, zero_sum, phase2_cap, offsets, card_index, card_action,
 * action_move, chance_action, pickup_action */
static int engine_config(Engine *self, int n, PyObject *rules, int zero_sum, int cap, PyObject *offs,
                         PyObject *cidx, PyObject *cact, PyObject *amove, int chance_action, int pickup_action) {
    if (n < 2 || n > 6 || cap < 1) {
        PyErr_SetString(PyExc_ValueError, "bad engine arguments");
        return -1;
    }
    self->n = n;
    if (int_list(rules, (int *)&self->r, RULE_FIELDS, "rules") < 0) return -1;
    self->zero_sum = zero_sum;
    self->cap = cap;
    self->chance_action = chance_action;
    self->pickup_action = pickup_action;
    if (int_list(offs, self->at, B_COUNT + 1, "offsets") < 0) return -1;
    self->size = self->at[B_COUNT];
    if (int_list(cidx, self->cidx, 52, "card_index") < 0) return -1;
    if (int_list(cact, self->card_action, 52, "card_action") < 0) return -1;
    Py_ssize_t na = PySequence_Size(amove);
    if (na < 54) { PyErr_SetString(PyExc_ValueError, "action_move"); return -1; }
    self->actions = (int)na;
    PyMem_Free(self->action_move);
    self->action_move = (int *)PyMem_Malloc(sizeof(int) * (size_t)na);
    if (!self->action_move) { PyErr_NoMemory(); return -1; }
    if (int_list(amove, self->action_move, na, "action_move") < 0) return -1;
    for (int k = 0; k < 52 * 16; k++) self->seq_action[k] = 0;
    for (Py_ssize_t a = 0; a < na; a++) {
        int mv = self->action_move[a];
        if (mv >= MV_SEQ + 16 * 52 || (mv >= 54 && mv < MV_SEQ) || mv < -1) {
            PyErr_SetString(PyExc_ValueError, "action_move: not a move code");
            return -1;
        }
        if (mv >= MV_SEQ) self->seq_action[mv - MV_SEQ] = (int)a;
    }
    return 0;
}

/* Engine(games, players, rules, zero_sum, phase2_cap, offsets, card_index, card_action,
 *        action_move, chance_action, pickup_action, obs, masks, final_obs, rewards,
 *        terminations, truncations, illegal); games=0 with None for each buffer makes
 * an engine without games: the shared spec of Mirror objects */
static int Engine_init(Engine *self, PyObject *args, PyObject *kw) {
    int games, n, zero_sum, cap, chance_action, pickup_action;
    PyObject *rules, *offs, *cidx, *cact, *amove, *obs, *mask, *fin, *rew, *term, *trunc, *ill;
    (void)kw;
    if (!PyArg_ParseTuple(args, "iiOiiOOOOiiOOOOOOO", &games, &n, &rules, &zero_sum, &cap, &offs, &cidx, &cact,
                          &amove, &chance_action, &pickup_action, &obs, &mask, &fin, &rew, &term, &trunc, &ill))
        return -1;
    if (games < 0 || self->g || self->games) {
        PyErr_SetString(PyExc_ValueError, "bad engine arguments");
        return -1;
    }
    if (engine_config(self, n, rules, zero_sum, cap, offs, cidx, cact, amove, chance_action, pickup_action) < 0)
        return -1;
    if (games == 0) return 0;  /* a spec only: no games, no buffers */
    Py_ssize_t na = self->actions;
    if (get_buf(obs, &self->obs, (Py_ssize_t)games * self->size * 4, "obs") < 0) return -1;
    if (get_buf(mask, &self->mask, (Py_ssize_t)games * na, "masks") < 0) return -1;
    if (get_buf(fin, &self->fin, (Py_ssize_t)games * self->size * 4, "final_obs") < 0) return -1;
    if (get_buf(rew, &self->rew, (Py_ssize_t)games * 8, "rewards") < 0) return -1;
    if (get_buf(term, &self->term, games, "terminations") < 0) return -1;
    if (get_buf(trunc, &self->trunc, games, "truncations") < 0) return -1;
    if (get_buf(ill, &self->ill, games, "illegal") < 0) return -1;
    self->g = (Game *)PyMem_Calloc((size_t)games, sizeof(Game));
    if (!self->g) { PyErr_NoMemory(); return -1; }
    self->games = games;
    for (int i = 0; i < games; i++) self->g[i].status = WAITING;
    return 0;
}

static int game_index(Engine *self, int i) {
    if (i < 0 || i >= self->games) {
        PyErr_SetString(PyExc_IndexError, "game index out of range");
        return -1;
    }
    return 0;
}

/* State.from_deck(rules, n, deck, dealer, leader) into g (its fields zero) */
static void deal_deck(Engine *e, Game *g, const int *deck, int dealer, int leader) {
    int n = e->n;
    g->dealer = dealer;
    g->phase = COLLECT;
    g->trump = g->trump_card = g->trump_holder = -1;
    g->trick_leader = g->last_winner = -1;
    g->in_game = (1 << n) - 1;
    int idx = 0;
    if (n == 2) {
        for (; idx < e->r.discard; idx++) g->aside |= 1ULL << deck[idx];
    }
    for (int r = 0; r < 3; r++)
        for (int j = 0; j < n; j++) g->hands[(dealer + 1 + j) % n] |= 1ULL << deck[idx++];
    g->nstock = 52 - idx;
    for (int k = 0; k < g->nstock; k++) g->stock[k] = (uint8_t)deck[51 - k];
    if (e->r.trump == TR_BOTTOM_UP) {
        g->trump_card = deck[51];
        g->trump = deck[51] / 13;
    }
    start_trick(e, g, leader);
}

/* start(i, deal_seed, seat, dealer, bot_seeds, bot_kinds=None): deal game i as
 * State.from_deck(rules, n, shuffled_deck(random.Random(deal_seed)), dealer), seat the
 * learner, seed each other seat's random opponent as random.Random(bot_seeds[s]) (its
 * kind: bot_kinds[s], BOT_RANDOM or BOT_HEURISTIC, all random without it; a heuristic
 * seat's new bot starts with an empty memory), play them up to the learner's turn and
 * write its tensor and mask; returns the status */
static PyObject *Engine_start(Engine *self, PyObject *args) {
    int i, seat, dealer;
    unsigned long long deal_seed;
    PyObject *bots, *kinds = Py_None;
    if (!PyArg_ParseTuple(args, "iKiiO|O", &i, &deal_seed, &seat, &dealer, &bots, &kinds)) return NULL;
    if (game_index(self, i) < 0) return NULL;
    int n = self->n;
    if (seat < 0 || seat >= n || dealer < 0 || dealer >= n) {
        PyErr_SetString(PyExc_ValueError, "seat or dealer out of range");
        return NULL;
    }
    PyObject *fast = PySequence_Fast(bots, "bot_seeds");
    if (!fast) return NULL;
    if (PySequence_Fast_GET_SIZE(fast) != n) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "bot_seeds needs a seed per seat");
        return NULL;
    }
    Game *g = &self->g[i];
    int bot[6] = {0, 0, 0, 0, 0, 0};
    if (kinds != Py_None) {
        if (int_list(kinds, bot, n, "bot_kinds") < 0) { Py_DECREF(fast); return NULL; }
        for (int s = 0; s < n; s++) {
            if (bot[s] != BOT_RANDOM && bot[s] != BOT_HEURISTIC) {
                Py_DECREF(fast);
                PyErr_SetString(PyExc_ValueError, "bot_kinds: 0 (random) or 1 (heuristic) a seat");
                return NULL;
            }
        }
    }
    memcpy(g->bot, bot, sizeof(bot));
    g->nseen = 0;
    Rep *rep = g->rep;
    int caprep = g->caprep;
    for (int s = 0; s < n; s++) {
        PyObject *o = PySequence_Fast_GET_ITEM(fast, s);
        if (s == seat) continue;
        unsigned long long v = PyLong_AsUnsignedLongLong(o);
        if (v == (unsigned long long)-1 && PyErr_Occurred()) { Py_DECREF(fast); return NULL; }
        mt_seed(&g->rng[s], v);
    }
    Py_DECREF(fast);
    /* the game's fields anew (the generators just seeded are kept) */
    size_t head = offsetof(Game, random_seat);
    memset(g, 0, head);
    g->rep = rep;
    g->caprep = caprep;
    g->nrep = 0;
    MT deal;
    mt_seed(&deal, deal_seed);
    int deck[52];
    for (int c = 0; c < 52; c++) deck[c] = c;
    for (int k = 51; k > 0; k--) {  /* state._shuffle_52 */
        int j = mt_below(&deal, k + 1);
        int t = deck[k]; deck[k] = deck[j]; deck[j] = t;
    }
    g->seat = seat;
    deal_deck(self, g, deck, dealer, (dealer + 1) % n);
    settle(self, g, 0);
    if (PyErr_Occurred()) return NULL;
    if (g->status == PLAYING) write_game(self, i);
    return PyLong_FromLong(g->status);
}

/* step(actions): one action id per game (an int64 buffer); returns the games whose
 * episode ended (their final tensors written, rewards and flags set) */
static PyObject *Engine_step(Engine *self, PyObject *arg) {
    Py_buffer ab;
    if (PyObject_GetBuffer(arg, &ab, PyBUF_C_CONTIGUOUS) < 0) return NULL;
    if (ab.len != (Py_ssize_t)self->games * 8) {
        PyBuffer_Release(&ab);
        PyErr_SetString(PyExc_ValueError, "need one int64 action per game");
        return NULL;
    }
    const int64_t *acts = (const int64_t *)ab.buf;
    double *rew = (double *)self->rew.buf;
    uint8_t *term = (uint8_t *)self->term.buf, *trunc = (uint8_t *)self->trunc.buf, *ill = (uint8_t *)self->ill.buf;
    memset(rew, 0, sizeof(double) * (size_t)self->games);
    memset(term, 0, (size_t)self->games);
    memset(trunc, 0, (size_t)self->games);
    memset(ill, 0, (size_t)self->games);
    PyObject *done = PyList_New(0);
    if (!done) { PyBuffer_Release(&ab); return NULL; }
    int moves[MAX_MOVES];
    for (int i = 0; i < self->games; i++) {
        Game *g = &self->g[i];
        if (g->status != PLAYING) continue;
        int64_t a = acts[i];
        int ok = 0;
        if (a >= 0 && a < self->actions) {
            int mv = self->action_move[a];
            int k = legal_moves(self, g, moves);
            for (int j = 0; j < k; j++) if (moves[j] == mv) { ok = 1; break; }
            if (ok) apply_move(self, g, mv);
        }
        if (!ok) {
            g->status = ILLEGAL;
            g->reward = -1.0;
        } else {
            settle(self, g, 1);
        }
        if (g->status == PLAYING) {
            write_game(self, i);
            continue;
        }
        rew[i] = g->reward;
        if (g->status == TRUNCATED) trunc[i] = 1;
        else {
            term[i] = 1;
            if (g->status == ILLEGAL) ill[i] = 1;
        }
        write_seat(self, g, g->seat, (float *)self->fin.buf + (size_t)i * (size_t)self->size, NULL);
        PyObject *v = PyLong_FromLong(i);
        if (!v || PyList_Append(done, v) < 0) { Py_XDECREF(v); Py_DECREF(done); PyBuffer_Release(&ab); return NULL; }
        Py_DECREF(v);
    }
    PyBuffer_Release(&ab);
    if (PyErr_Occurred()) { Py_DECREF(done); return NULL; }
    return done;
}

/* dump(): every game's state and generators as bytes (for copying and pickling on this
 * build: the layout is this build's structs) */
static PyObject *Engine_dump(Engine *self, PyObject *unused) {
    (void)unused;
    size_t size = sizeof(long long) + (size_t)self->games * sizeof(Game);
    for (int i = 0; i < self->games; i++)
        size += (size_t)self->g[i].nrep * sizeof(Rep) + (size_t)self->g[i].nseen * sizeof(uint64_t);
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)size);
    if (!out) return NULL;
    char *p = PyBytes_AS_STRING(out);
    memcpy(p, &self->decisions, sizeof(long long));
    p += sizeof(long long);
    for (int i = 0; i < self->games; i++) {
        memcpy(p, &self->g[i], sizeof(Game));
        p += sizeof(Game);
    }
    for (int i = 0; i < self->games; i++) {
        memcpy(p, self->g[i].rep, (size_t)self->g[i].nrep * sizeof(Rep));
        p += (size_t)self->g[i].nrep * sizeof(Rep);
        if (self->g[i].nseen) memcpy(p, self->g[i].seen, (size_t)self->g[i].nseen * sizeof(uint64_t));
        p += (size_t)self->g[i].nseen * sizeof(uint64_t);
    }
    return out;
}

/* load(data): the games of a dump() of an engine of the same shape */
static PyObject *Engine_load(Engine *self, PyObject *arg) {
    char *p;
    Py_ssize_t len;
    if (PyBytes_AsStringAndSize(arg, &p, &len) < 0) return NULL;
    size_t head = sizeof(long long) + (size_t)self->games * sizeof(Game);
    if ((size_t)len < head) goto bad;
    size_t need = head;
    for (int i = 0; i < self->games; i++) {
        Game tmp;
        memcpy(&tmp, p + sizeof(long long) + (size_t)i * sizeof(Game), sizeof(Game));
        if (tmp.nrep < 0 || tmp.nrep > 1 << 24 || tmp.nseen < 0 || tmp.nseen > 1 << 28) goto bad;
        need += (size_t)tmp.nrep * sizeof(Rep) + (size_t)tmp.nseen * sizeof(uint64_t);
    }
    if ((size_t)len != need) goto bad;
    memcpy(&self->decisions, p, sizeof(long long));
    p += sizeof(long long);
    for (int i = 0; i < self->games; i++) {
        Game *g = &self->g[i];
        Rep *rep = g->rep;
        int cap = g->caprep;
        uint64_t *seen = g->seen;
        int capseen = g->capseen;
        memcpy(g, p, sizeof(Game));
        p += sizeof(Game);
        g->rep = rep;
        g->caprep = cap;
        g->seen = seen;
        g->capseen = capseen;
        if (g->nrep > cap) {
            Rep *nr = (Rep *)PyMem_Realloc(rep, sizeof(Rep) * (size_t)g->nrep);
            if (!nr) {
                g->nrep = 0;
                g->nseen = 0;
                return PyErr_NoMemory();
            }
            g->rep = nr;
            g->caprep = g->nrep;
        }
        if (g->nseen > capseen) {
            uint64_t *ns = (uint64_t *)PyMem_Realloc(seen, sizeof(uint64_t) * (size_t)g->nseen);
            if (!ns) {
                g->nseen = 0;
                return PyErr_NoMemory();
            }
            g->seen = ns;
            g->capseen = g->nseen;
        }
    }
    for (int i = 0; i < self->games; i++) {
        Game *g = &self->g[i];
        memcpy(g->rep, p, (size_t)g->nrep * sizeof(Rep));
        p += (size_t)g->nrep * sizeof(Rep);
        if (g->nseen) memcpy(g->seen, p, (size_t)g->nseen * sizeof(uint64_t));
        p += (size_t)g->nseen * sizeof(uint64_t);
    }
    Py_RETURN_NONE;
bad:
    PyErr_SetString(PyExc_ValueError, "not a dump of an engine of this shape and build");
    return NULL;
}

static PyObject *seat_tuple(const int *xs, int k) {
    PyObject *t = PyTuple_New(k);
    if (!t) return NULL;
    for (int i = 0; i < k; i++) PyTuple_SET_ITEM(t, i, PyLong_FromLong(xs[i]));
    return t;
}

/* facts(i): (phase, dealer, finished, ranked, losers) of game i now */
static PyObject *Engine_facts(Engine *self, PyObject *arg) {
    int i = (int)PyLong_AsLong(arg);
    if (i == -1 && PyErr_Occurred()) return NULL;
    if (game_index(self, i) < 0) return NULL;
    Game *g = &self->g[i];
    return Py_BuildValue("iiNNN", g->phase, g->dealer, seat_tuple(g->finished, g->nfin),
                         seat_tuple(g->ranked, g->nranked), seat_tuple(g->losers, g->nlos));
}

static PyObject *Engine_seat(Engine *self, PyObject *arg) {
    int i = (int)PyLong_AsLong(arg);
    if (i == -1 && PyErr_Occurred()) return NULL;
    if (game_index(self, i) < 0) return NULL;
    return PyLong_FromLong(self->g[i].seat);
}

static PyObject *Engine_decisions(Engine *self, void *closure) {
    (void)closure;
    return PyLong_FromLongLong(self->decisions);
}

static PyMethodDef Engine_methods[] = {
    {"start", (PyCFunction)Engine_start, METH_VARARGS, "start(i, deal_seed, seat, dealer, bot_seeds, bot_kinds=None) -> status"},
    {"step", (PyCFunction)Engine_step, METH_O, "step(actions) -> the games whose episode ended"},
    {"facts", (PyCFunction)Engine_facts, METH_O, "facts(i) -> (phase, dealer, finished, ranked, losers)"},
    {"seat", (PyCFunction)Engine_seat, METH_O, "seat(i) -> the learner's seat"},
    {"dump", (PyCFunction)Engine_dump, METH_NOARGS, "dump() -> the games' states as bytes"},
    {"load", (PyCFunction)Engine_load, METH_O, "load(data): the games' states of a dump()"},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef Engine_getset[] = {
    {"decisions", (getter)Engine_decisions, NULL, "moves made by every seat so far", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject EngineType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "mattis.rl._native.Engine",
    .tp_basicsize = sizeof(Engine),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "N games of the mattis/hund presets stepped natively (see mattis.rl.batched)",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Engine_init,
    .tp_dealloc = (destructor)Engine_dealloc,
    .tp_methods = Engine_methods,
    .tp_getset = Engine_getset,
};

/* ------------------------------------------------------------------ Mirror */
/* One game told each move a Python State makes (the State stays the truth: the
 * mirror only writes tensors and masks, as mattis.rl.encoding's encoder would, from
 * its bitmasks).  Mirror(spec, deck, dealer, leader): the deal of State.from_deck
 * (spec: an Engine(0, ...) holding the rules, layout and action numbering). */
typedef struct {
    PyObject_HEAD
    Engine *e;
    Game g;
} Mirror;

static PyTypeObject MirrorType;

static void Mirror_dealloc(Mirror *self) {
    PyMem_Free(self->g.rep);
    Py_XDECREF((PyObject *)self->e);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int Mirror_init(Mirror *self, PyObject *args, PyObject *kw) {
    PyObject *spec, *deckseq;
    int dealer, leader;
    (void)kw;
    if (!PyArg_ParseTuple(args, "O!Oii", &EngineType, &spec, &deckseq, &dealer, &leader)) return -1;
    Engine *e = (Engine *)spec;
    if (e->n < 2 || !e->action_move) {
        PyErr_SetString(PyExc_ValueError, "spec: an engine made with its rules");
        return -1;
    }
    int deck[52];
    if (int_list(deckseq, deck, 52, "deck") < 0) return -1;
    uint64_t seen = 0;
    for (int k = 0; k < 52; k++) {
        if (deck[k] < 0 || deck[k] >= 52 || (seen >> deck[k] & 1)) {
            PyErr_SetString(PyExc_ValueError, "deck: each of the 52 cards once");
            return -1;
        }
        seen |= 1ULL << deck[k];
    }
    if (dealer < 0 || dealer >= e->n || leader < 0 || leader >= e->n) {
        PyErr_SetString(PyExc_ValueError, "dealer or leader out of range");
        return -1;
    }
    Py_INCREF(spec);
    Py_XSETREF(self->e, e);
    PyMem_Free(self->g.rep);
    memset(&self->g, 0, offsetof(Game, random_seat));
    deal_deck(e, &self->g, deck, dealer, leader);
    if (PyErr_Occurred()) return -1;
    return 0;
}

static int mirror_apply(Mirror *self, long a) {
    Engine *e = self->e;
    Game *g = &self->g;
    int moves[MAX_MOVES];
    if (g->phase == OVER || a < 0 || a >= e->actions) goto bad;
    int mv = e->action_move[a], k = legal_moves(e, g, moves);
    for (int j = 0; j < k; j++) {
        if (moves[j] == mv) {
            apply_move(e, g, mv);
            return PyErr_Occurred() ? -1 : 0;
        }
    }
bad:
    PyErr_Format(PyExc_ValueError, "the mirror cannot make action %ld here (not legal in its game)", a);
    return -1;
}

/* apply(action): the move of an action number (a legal one: else ValueError) */
static PyObject *Mirror_apply(Mirror *self, PyObject *arg) {
    if (!self->e) { PyErr_SetString(PyExc_ValueError, "an unmade mirror"); return NULL; }
    long a = PyLong_AsLong(arg);
    if (a == -1 && PyErr_Occurred()) return NULL;
    if (mirror_apply(self, a) < 0) return NULL;
    Py_RETURN_NONE;
}

/* apply_all(actions): apply() each in turn */
static PyObject *Mirror_apply_all(Mirror *self, PyObject *arg) {
    if (!self->e) { PyErr_SetString(PyExc_ValueError, "an unmade mirror"); return NULL; }
    PyObject *fast = PySequence_Fast(arg, "actions");
    if (!fast) return NULL;
    Py_ssize_t k = PySequence_Fast_GET_SIZE(fast);
    for (Py_ssize_t i = 0; i < k; i++) {
        long a = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if ((a == -1 && PyErr_Occurred()) || mirror_apply(self, a) < 0) { Py_DECREF(fast); return NULL; }
    }
    Py_DECREF(fast);
    Py_RETURN_NONE;
}

/* write(seat, obs, mask): seat's tensor into obs (float32, the layout's size) and, when
 * mask is not None, its legal actions into mask (one byte an action, all 0 unless it is
 * to act) */
static PyObject *Mirror_write(Mirror *self, PyObject *const *args, Py_ssize_t nargs) {
    if (!self->e) { PyErr_SetString(PyExc_ValueError, "an unmade mirror"); return NULL; }
    if (nargs != 3) { PyErr_SetString(PyExc_TypeError, "write(seat, obs, mask)"); return NULL; }
    Engine *e = self->e;
    long seat = PyLong_AsLong(args[0]);
    if (seat == -1 && PyErr_Occurred()) return NULL;
    if (seat < 0 || seat >= e->n) { PyErr_SetString(PyExc_ValueError, "seat out of range"); return NULL; }
    Py_buffer ob, mb;
    ob.obj = NULL;
    mb.obj = NULL;
    if (get_buf(args[1], &ob, (Py_ssize_t)e->size * 4, "obs") < 0) {
        if (ob.obj) PyBuffer_Release(&ob);
        return NULL;
    }
    uint8_t *mrow = NULL;
    if (args[2] != Py_None) {
        if (get_buf(args[2], &mb, e->actions, "mask") < 0) {
            if (mb.obj) PyBuffer_Release(&mb);
            PyBuffer_Release(&ob);
            return NULL;
        }
        mrow = (uint8_t *)mb.buf;
    }
    write_seat(e, &self->g, (int)seat, (float *)ob.buf, mrow);
    PyBuffer_Release(&ob);
    if (mb.obj) PyBuffer_Release(&mb);
    Py_RETURN_NONE;
}

/* copy(): a mirror of the same game, moved on independently */
static PyObject *Mirror_copy(Mirror *self, PyObject *unused) {
    (void)unused;
    Mirror *c = (Mirror *)MirrorType.tp_alloc(&MirrorType, 0);
    if (!c) return NULL;
    if (self->e) {
        Py_INCREF((PyObject *)self->e);
        c->e = self->e;
    }
    memcpy(&c->g, &self->g, offsetof(Game, random_seat));
    c->g.rep = NULL;
    c->g.caprep = 0;
    if (self->g.nrep) {
        c->g.rep = (Rep *)PyMem_Malloc(sizeof(Rep) * (size_t)self->g.nrep);
        if (!c->g.rep) { Py_DECREF(c); return PyErr_NoMemory(); }
        memcpy(c->g.rep, self->g.rep, sizeof(Rep) * (size_t)self->g.nrep);
        c->g.caprep = self->g.nrep;
    }
    return (PyObject *)c;
}

static PyObject *Mirror_deepcopy(Mirror *self, PyObject *memo) {
    (void)memo;
    return Mirror_copy(self, NULL);
}

static PyObject *Mirror_to_act(Mirror *self, void *closure) {
    (void)closure;
    return PyLong_FromLong(self->e && self->g.phase != OVER ? self->g.turn : -1);
}

static PyMethodDef Mirror_methods[] = {
    {"apply", (PyCFunction)Mirror_apply, METH_O, "apply(action): make a legal action's move"},
    {"apply_all", (PyCFunction)Mirror_apply_all, METH_O, "apply_all(actions): apply() each in turn"},
    {"write", (PyCFunction)(void (*)(void))Mirror_write, METH_FASTCALL,
     "write(seat, obs, mask): the seat's tensor (and legal-action mask unless None)"},
    {"copy", (PyCFunction)Mirror_copy, METH_NOARGS, "copy() -> a mirror of the same game"},
    {"__copy__", (PyCFunction)Mirror_copy, METH_NOARGS, NULL},
    {"__deepcopy__", (PyCFunction)Mirror_deepcopy, METH_O, NULL},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef Mirror_getset[] = {
    {"to_act", (getter)Mirror_to_act, NULL, "the seat to act (-1 once the game is over)", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject MirrorType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "mattis.rl._native.Mirror",
    .tp_basicsize = sizeof(Mirror),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "one game mirrored from a Python State's moves, writing tensors and masks (see mattis.rl.mirror)",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Mirror_init,
    .tp_dealloc = (destructor)Mirror_dealloc,
    .tp_methods = Mirror_methods,
    .tp_getset = Mirror_getset,
};

/* shuffled(seed): random.Random(seed)'s shuffle of range(52) (for tests of the generator) */
static PyObject *native_shuffled(PyObject *mod, PyObject *arg) {
    (void)mod;
    unsigned long long seed = PyLong_AsUnsignedLongLong(arg);
    if (seed == (unsigned long long)-1 && PyErr_Occurred()) return NULL;
    MT r;
    mt_seed(&r, seed);
    int deck[52];
    for (int c = 0; c < 52; c++) deck[c] = c;
    for (int k = 51; k > 0; k--) {
        int j = mt_below(&r, k + 1);
        int t = deck[k]; deck[k] = deck[j]; deck[j] = t;
    }
    return seat_tuple(deck, 52);
}

static PyMethodDef module_methods[] = {
    {"shuffled", native_shuffled, METH_O, "random.Random(seed)'s shuffle of range(52)"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef native_module = {
    PyModuleDef_HEAD_INIT, "mattis.rl._native",
    "The native batched engine (see mattis.rl.batched).", -1, module_methods,
    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__native(void) {
    if (PyType_Ready(&EngineType) < 0 || PyType_Ready(&MirrorType) < 0) return NULL;
    PyObject *m = PyModule_Create(&native_module);
    if (!m) return NULL;
    Py_INCREF(&EngineType);
    if (PyModule_AddObject(m, "Engine", (PyObject *)&EngineType) < 0) {
        Py_DECREF(&EngineType);
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&MirrorType);
    if (PyModule_AddObject(m, "Mirror", (PyObject *)&MirrorType) < 0) {
        Py_DECREF(&MirrorType);
        Py_DECREF(m);
        return NULL;
    }
    if (PyModule_AddStringConstant(m, "SOURCE", MATTIS_NATIVE_SOURCE) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
