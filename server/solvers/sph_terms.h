/* The SPH family's formulas written once for the CPU (FC_LANES neighbours at a time) and CUDA (one per
 * thread): the kernel constants, the density, and WCSPH's pair and particle terms (FC_HD over the
 * lanes of core/lane_math.h). Solvers on either side call these and never write them again. */
#ifndef FC_SPH_TERMS_H
#define FC_SPH_TERMS_H

#include <math.h>
#include <stdint.h>

#include "core/eos.h"
#include "core/hd.h"
#include "core/kernels.h"
#include "core/lane_math.h"

/* The most fluids a world has (core/fluids.h's FC_MAX_FLUIDS, which the per-fluid tables here are
 * indexed by; sph_family.h checks that they agree). */
#define FC_SPH_MAX_FLUIDS 16

/* The density formula of both solvers (Mueller et al. 2003 eq. 3 with m = rho0 V0, plus the Akinci
 * et al. 2012 boundary term), as a ratio to rest density:
 *   rho_i / rho0 = poly6 (V0 (self_weight + sum_j d3_ij) + sum_b V_b d3_ib),   d3 = (h^2 - r^2)^3,
 * where self_weight = initial_sum h^6 is particle i's own term: the lists leave i out, and this is
 * the one place its term enters. fluid = sum_j d3_ij over the fluid neighbours, solid =
 * sum_b V_b d3_ib over the boundary neighbours. */
typedef struct fc_sph_kernel {
    fc_fv h, h2, spiky, tiny2; /* spiky = 45 / (pi h^6) (2D: 30 / (pi h^5)): grad W_ij = -spiky (h - r)^2 / r (x_i - x_j) */
    float poly6;               /* 315 / (64 pi h^9) (2D: 4 / (pi h^8)) */
    float volume;              /* V0 */
    float self_weight;         /* initial_sum h^6 */
    float h_scalar;            /* h, for scalar code */
    int dimensions;            /* 2 or 3 */
} fc_sph_kernel;

/* The kernel constants for smoothing radius h in `dims` dimensions, V0 = volume (fc_sph_rest_volume)
 * and the self weight initial_sum (the one place they are derived, on either side). */
static inline FC_HD void fc_sph_kernel_make(fc_sph_kernel *k, double h, int dims, double volume, double initial_sum)
{
    k->h = fc_fv_splat((float)h);
    k->h2 = fc_fv_splat((float)(h * h));
    k->spiky = fc_fv_splat((float)-fc_spiky_gradient_coefficient(h, dims));
    k->tiny2 = fc_fv_splat((float)(1e-12 * h * h));
    k->poly6 = (float)fc_poly6_coefficient(h, dims);
    k->volume = (float)volume;
    k->self_weight = (float)(initial_sum * pow(h, 6));
    k->h_scalar = (float)h;
    k->dimensions = dims;
}

static inline FC_HD float fc_sph_density_ratio(const fc_sph_kernel *k, float fluid, float solid)
{
    return k->poly6 * (k->volume * (k->self_weight + fluid) + solid);
}

/* For FC_LANES pairs (one in CUDA: core/lane_math.h) with r2 = |x_i - x_j|^2: q = h - r and 1/r, both 0 beyond h and at r = 0
 * (coincident points, which exert no force). Lists are found once per step, so a pair may have
 * moved beyond h. */
static inline FC_HD fc_fv fc_sph_distance_terms(const fc_sph_kernel *k, fc_fv r2, fc_fv *inv_r)
{
    const fc_iv apart = r2 > k->tiny2;
    *inv_r = fc_fv_select(apart, fc_fv_rsqrt(r2), fc_fv_splat(0.0f));
    return fc_fv_select(apart, fc_fv_positive(k->h - r2 * *inv_r), fc_fv_splat(0.0f));
}

/* The kernel terms of FC_LANES pairs: the poly6 factor d3 = (h^2 - r^2)^3 (W_ij = poly6 d3) and g with
 * grad_{p_i} W_spiky,ij = -g (x_i - x_j), both 0 beyond h and g 0 at r = 0. */
static inline FC_HD void fc_sph_kernel_terms(const fc_sph_kernel *k, fc_fv r2, fc_fv *d3, fc_fv *g)
{
    const fc_fv d = fc_fv_positive(k->h2 - r2);
    fc_fv inv_r;
    const fc_fv q = fc_sph_distance_terms(k, r2, &inv_r);
    *d3 = d * d * d;
    *g = k->spiky * q * q * inv_r;
}

/* ---- Weakly compressible SPH (solvers/sph.c explains the equations) --------------------------- */

/* The equation of state of a step: linear p = k (rho - rho0) or Tait (core/eos.h), negative
 * pressure clamped to 0 on request. */
typedef struct fc_wcsph_eos {
    int tait;            /* 1: Tait with each fluid's B; 0: linear with `stiffness` */
    int clamp_negative;  /* 1: p = max(p, 0) */
    float stiffness;     /* k of the linear form, Pa m^3/kg */
    float tait_coefficient[FC_SPH_MAX_FLUIDS]; /* B = rho0 c^2 / 7 of each fluid */
} fc_wcsph_eos;

/* Pressure of a particle of fluid f at density rho, its fluid's rest density rho0. */
static inline FC_HD float fc_wcsph_pressure(const fc_wcsph_eos *e, int f, float rho, float rho0)
{
    const float p = e->tait ? fc_eos_tait(rho, rho0, e->tait_coefficient[f]) : fc_eos_linear(rho, rho0, e->stiffness);
    return (e->clamp_negative && p < 0.0f) ? 0.0f : p;
}

/* What the force pass reads of particle i of fluid f at density rho (rest density rho0, mass ratio
 * r_i = m_i / m_0): r_i / rho_i and r_i p_i / rho_i. */
static inline FC_HD void fc_wcsph_particle_terms(const fc_wcsph_eos *e, int f, float rho, float rho0, float ratio,
                                                 float *r_over_rho, float *rp_over_rho)
{
    const float r_over = ratio / rho;
    *r_over_rho = r_over;
    *rp_over_rho = fc_wcsph_pressure(e, f, rho, rho0) * r_over;
}

/* What the force pass reads besides the particles: the constants and the per-fluid tables. */
typedef struct fc_wcsph_forces {
    float mu[FC_SPH_MAX_FLUIDS];             /* each fluid's dynamic viscosity */
    float ratio[FC_SPH_MAX_FLUIDS];          /* m_f / m_0 */
    float boundary_coeff[FC_SPH_MAX_FLUIDS]; /* rho0_f 45 / (pi h^6): a boundary particle's mass is rho0_f V_b */
    float fluid_coeff;                       /* m_0 45 / (pi h^6) */
    float artificial;                        /* alpha c h of Monaghan's artificial viscosity; 0: off */
    float artificial_eps2;                   /* 0.01 h^2 */
    float correction;                        /* 1 / the lattice moment of the spiky gradient (sph.c) */
    float gx, gy, gz;
    float contact;                           /* r_c of fc_contact_pair: FC_CONTACT_DISTANCE spacings */
    int mixed;                               /* the fluids differ in viscosity: the pair uses the mean */
} fc_wcsph_forces;

/* ---- Viscosity (Mueller et al. 2003 eq. 9; seed 001 eq. 9), for both solvers ------------------
 * a_i = K m_0 / rho_i sum_j (r_j / rho_j) mu_ij (h - r) (v_j - v_i), K the viscosity Laplacian's
 * constant (core/kernels.h), r_j = m_j / m_0, mu_ij = mu_i with one viscosity and the pair's mean
 * (mu_i + mu_j) / 2 when the fluids' differ (Morris, Fox and Zhu 1997 average a pair's
 * coefficients so: the pair's viscous forces stay equal and opposite). WCSPH sums it in its force
 * pass; PBF, with viscosity_model mueller2003, in its vorticity and XSPH pass, and adds dt a_i to
 * the velocity beside XSPH's change. Pair terms, q = h - r:
 *   viscosity  r_j / rho_j q, times (v_j - v_i)
 *   mixed      q (M_j v_j - M_j v_i) with M_j = mu_j r_j / rho_j, for the pair mean */
typedef struct fc_viscosity_terms {
    float mu[FC_SPH_MAX_FLUIDS]; /* each fluid's dynamic viscosity; all 0 when the model is off */
    float coeff;                 /* m_0 K */
    int on;                      /* the world's viscosity_model gives this solver Mueller's viscosity */
    int mixed;                   /* the fluids differ in viscosity: the pair uses the mean */
} fc_viscosity_terms;

static inline FC_HD fc_fv fc_viscosity_pair(fc_fv r_over_rho_j, fc_fv q) { return r_over_rho_j * q; }
/* M_j = mu_j r_j / rho_j, neighbour j's weight in the pair mean of viscosities. */
static inline FC_HD float fc_viscosity_weight(float mu_j, float r_over_rho_j) { return mu_j * r_over_rho_j; }
static inline FC_HD fc_fv fc_viscosity_mixed_pair(fc_fv q, fc_fv mv_j, fc_fv m_j, fc_fv v_i) { return q * (mv_j - m_j * v_i); }
/* One component of a_i / (K m_0) from the sums above (mixed NULL: one viscosity), 1 / rho_i = inv_rho_i. */
static inline FC_HD float fc_viscous_term(float mu_i, float inv_rho_i, float velocity, const float *mixed)
{
    return mixed ? inv_rho_i * (0.5f * mu_i * velocity + 0.5f * *mixed) : mu_i * inv_rho_i * velocity;
}

/* The pair terms of particle i's acceleration, with q = h - r and 1/r from fc_sph_distance_terms,
 * r_j = m_j / m_0 and g_ij = q^2 / r (the spiky gradient without its constant):
 *   pressure   (p_i r_j / rho_j + r_j p_j / rho_j) g_ij, times (x_i - x_j)
 *   viscosity  fc_viscosity_pair and fc_viscosity_mixed_pair above
 *   boundary   V_b g_ib, times (x_i - x_b) */
static inline FC_HD fc_fv fc_wcsph_pressure_pair(fc_fv p_i, fc_fv r_over_rho_j, fc_fv rp_over_rho_j, fc_fv q, fc_fv inv_r)
{
    return (p_i * r_over_rho_j + rp_over_rho_j) * q * q * inv_r;
}
static inline FC_HD fc_fv fc_wcsph_boundary_pair(fc_fv volume_b, fc_fv q, fc_fv inv_r) { return volume_b * q * q * inv_r; }

/* Monaghan 1992's artificial viscosity between particles i and j that approach each other
 * (v_ij . x_ij < 0, v_ij = v_i - v_j, x_ij = x_i - x_j), the pair's term to multiply with
 * (x_i - x_j) like the pressure pair:
 *   r_j Pi_ij q^2 / r,  Pi_ij = alpha c h (-v_ij . x_ij) 2 / ((rho_i + rho_j) (r^2 + 0.01 h^2)),
 * (0 for pairs moving apart), so that a_i gains -sum_j m_j Pi_ij grad W_ij with the constants of
 * the pressure sums (fc_wcsph_acceleration). Pi_ij is symmetric: momentum is kept. */
static inline FC_HD fc_fv fc_wcsph_artificial_pair(const fc_wcsph_forces *t, fc_fv v_dot_x, fc_fv r2, fc_fv rho_i,
                                                   fc_fv rho_j, fc_fv r_j, fc_fv q, fc_fv inv_r)
{
    const fc_fv approach = fc_fv_positive(fc_fv_splat(0.0f) - v_dot_x);
    const fc_fv pi = fc_fv_splat(2.0f * t->artificial) * approach / ((rho_i + rho_j) * (r2 + fc_fv_splat(t->artificial_eps2)));
    return r_j * pi * q * q * inv_r;
}

/* ---- Contact: no two particles at one point (seed 002 section IV) ----------------------------
 * Pressure keeps particles apart only where the fluid is compressed. Where the density is below
 * rest (a free surface, spray, with clamp_negative_pressure) nothing pushes two particles apart, and
 * the tension's cohesion pulls a small cluster together until its particles coincide, where every
 * kernel gradient between them vanishes and they never part. So a pair closer than r_c =
 * FC_CONTACT_DISTANCE spacings, far closer than a resolved flow ever puts them, is pushed apart by
 * position, a distance-dependent offset as seed 002 advises: each particle moves half of the overlap
 * r_c - r along the line of centres, the shifts of a pair equal and opposite, the velocities left as
 * they are (nothing is added to the kinetic energy):
 *   shift_i = sum_j c_ij (x_i - x_j),  c_ij = max(r_c - r, 0) / (2 r),
 * 0 for a pair already on one point (r below fc_sph_distance_terms' tiny distance: no direction). */
#define FC_CONTACT_DISTANCE 0.2
static inline FC_HD fc_fv fc_contact_pair(const fc_wcsph_forces *t, fc_fv r2, fc_fv inv_r)
{
    return fc_fv_positive(fc_fv_splat(t->contact) - r2 * inv_r) * inv_r * fc_fv_splat(0.5f);
}

/* The boundary pressure of Akinci et al. 2012 on particle i of fluid f (density 1 / inv_rho_i,
 * pressure p_i): its acceleration is this coefficient times sum_b V_b g_ib (x_i - x_b), with
 * 2 p_i / rho_i^2 (the pressure mirrored into the solid) times rho0_f 45 / (pi h^6); 0 unless p_i
 * is positive. The solid feels the opposite force (fc_wcsph_object_loads). */
static inline FC_HD float fc_wcsph_wall_coefficient(const fc_wcsph_forces *t, int f, float inv_rho_i, float p_i)
{
    const float mirrored_pair = 2.0f * (p_i * inv_rho_i) * inv_rho_i; /* 2 p_i / rho_i^2 */
    return mirrored_pair > 0.0f ? t->correction * t->boundary_coeff[f] * mirrored_pair : 0.0f;
}

/* Particle i's acceleration from its sums of the pair terms (mixed: NULL unless t->mixed;
 * artificial: NULL unless t->artificial > 0): gravity, pressure and viscosity with m_0 45 / (pi h^6)
 * in front, the artificial viscosity with the pressure's constants, and the boundary pressure
 * (fc_wcsph_wall_coefficient) times sum_b V_b g_ib (x_i - x_b). r_over_rho_i = r_i / rho_i. */
static inline FC_HD void fc_wcsph_acceleration(const fc_wcsph_forces *t, int f, float r_over_rho_i, float p_i,
                                               const float pressure[3], const float velocity[3], const float *mixed,
                                               const float *artificial, const float wall[3], float a[3])
{
    const float inv_rho_i = r_over_rho_i / t->ratio[f];
    const float wall_coeff = fc_wcsph_wall_coefficient(t, f, inv_rho_i, p_i);
    const float pressure_scale = t->correction * inv_rho_i;
    const float g[3] = {t->gx, t->gy, t->gz};
    for (int k = 0; k < 3; k++) {
        const float viscous = fc_viscous_term(t->mu[f], inv_rho_i, velocity[k], mixed ? &mixed[k] : NULL);
        a[k] = g[k] + t->fluid_coeff * (pressure_scale * pressure[k] + viscous) + wall_coeff * wall[k];
        if (artificial) a[k] += t->fluid_coeff * t->correction * artificial[k];
    }
}

/* Semi-implicit Euler: v += a dt, then x += v dt. */
static inline FC_HD void fc_wcsph_integrate(const float a[3], float dt, float v[3], float x[3])
{
    for (int k = 0; k < 3; k++) v[k] += a[k] * dt, x[k] += v[k] * dt;
}

/* ---- Heat: conduction (Cleary and Monaghan 1999) and thermal expansion, for both solvers ------ */

/* What the heat terms read besides the particles: each fluid's conductivity k = alpha rho0 c, its
 * 1 / c, its expansion coefficient beta and reference temperature, and the sum's constant. */
typedef struct fc_heat_terms {
    float conductivity[FC_SPH_MAX_FLUIDS];  /* k_f, W/(m K) */
    float inv_capacity[FC_SPH_MAX_FLUIDS];  /* 1 / c_f, kg K/J */
    float expansion[FC_SPH_MAX_FLUIDS];     /* beta_f, 1/K */
    float reference[FC_SPH_MAX_FLUIDS];     /* T_ref of fluid f: it has rest density rho0_f there, K */
    float contact[FC_SPH_MAX_FLUIDS];       /* spacing^(dims - 1) / (m_f c_f): what a hot solid's flux does to a
                                               particle of the first layer (fc_contact_heat), K/J m^2 */
    float coeff;                            /* m_0 45 / (pi h^6) (2D: 30 / (pi h^5)) over the lattice moment of the
                                               spiky gradient (kernels.h): exact for a quadratic field at rest */
    float eta2;                             /* 0.01 h^2, which keeps the pair term finite as r goes to 0 */
    float lowest, highest;                  /* the range of fc_heat_expansion's factor (FC_HEAT_EXPANSION_RANGE) */
    int conduction;                         /* heat_conduction is on */
    int expands;                            /* some fluid has beta > 0 */
} fc_heat_terms;

/* How a particle of fluid f at temperature T has expanded: its rest density over its fluid's,
 * 1 - beta (T - T_ref), clamped to [lowest, highest] (FC_HEAT_EXPANSION_RANGE). Exactly 1 at T_ref. */
static inline FC_HD float fc_heat_expansion(const fc_heat_terms *t, int f, float temperature)
{
    const float factor = 1.0f - t->expansion[f] * (temperature - t->reference[f]);
    return fminf(fmaxf(factor, t->lowest), t->highest);
}

/* The rest density of a particle of fluid f (rest density rho0) at temperature T. */
static inline FC_HD float fc_heat_rest_density(const fc_heat_terms *t, int f, float rho0, float temperature)
{
    return rho0 * fc_heat_expansion(t, f, temperature);
}

/* The pair term of particle i's conduction sum with q = h - r, 1/r and r^2 (fc_sph_distance_terms),
 * r_j / rho_j (r_j = m_j / m_0) and the pair's conductivities:
 *   r_j / rho_j  4 k_i k_j / (k_i + k_j)  (T_j - T_i)  q^2 r / (r^2 + eta^2),
 * which is Cleary and Monaghan's m_j / rho_j K_ij (T_i - T_j) x_ij . grad W_ij / (r^2 + eta^2) without
 * the spiky constant and m_0 (x_ij . grad_i W_ij = -spiky q^2 r). The pair's harmonic mean keeps the
 * flux continuous where conductivities differ; two insulators (k = 0) exchange nothing. */
static inline FC_HD fc_fv fc_heat_pair(const fc_heat_terms *t, fc_fv temperature_i, fc_fv k_i, fc_fv r_over_rho_j,
                                       fc_fv temperature_j, fc_fv k_j, fc_fv q, fc_fv r2, fc_fv inv_r)
{
    const fc_fv k_sum = k_i + k_j; /* one division for the mean and the denominator */
    const fc_fv flux =
        fc_fv_splat(4.0f) * k_i * k_j * r_over_rho_j * (temperature_j - temperature_i) * q * q * (r2 * inv_r);
    return fc_fv_select(k_sum > fc_fv_splat(0.0f), flux / (k_sum * (r2 + fc_fv_splat(t->eta2))), fc_fv_splat(0.0f));
}

/* dT_i/dt of particle i of fluid f (1 / rho_i = inv_rho_i) from its sum of fc_heat_pair. The pair
 * terms of i and j are equal and opposite in m c dT/dt, so conduction keeps sum m c T exactly.
 * PBF, whose particles keep their rest volume V0, weighs every neighbour by r_j / rho_j = V0 / m_0
 * and takes 1 / rho_i = V0 / m_i (m_i / rho_i = V0 on both sides of the pair: still exact). */
static inline FC_HD float fc_heat_rate(const fc_heat_terms *t, int f, float inv_rho_i, float sum)
{
    return t->coeff * t->inv_capacity[f] * inv_rho_i * sum;
}

/* ---- Tension: surface and interface (seed 004 eq. 5, Mueller et al. 2005), for both solvers ---- */

/* Seed 004 eq. 5 gives the force density f = -sigma lap(c) n^ with n^ = grad c / |grad c|, for the
 * colour fields c^s (1 on every liquid particle, 0 beyond the free surface) and c^i (+1/2 polar,
 * -1/2 nonpolar), with poly6's gradient grad W_ij = -6 C (h^2 - r^2)^2 (x_i - x_j) and Laplacian
 * lap W_ij = -6 C (h^2 - r^2) (D h^2 - (D + 4) r^2).
 * The surface: since lap c = div(|grad c| n^) = |grad c| div n^ + n^ . grad |grad c|, eq. 5 is
 * Brackbill, Kothe and Zemach 1992's continuum surface force f = sigma kappa grad c, kappa = -div n^,
 * plus a term that integrates to zero across the surface (|grad c| rises and falls again) but
 * pushes particles outward where it is positive: with poly6's sign-changing Laplacian it throws the
 * outermost particles off a drop. So the surface takes the first term alone:
 *   grad c^s_i = sum_j V_j grad W_ij (the plain sum: the missing neighbours beyond a free surface
 *   are the surface), summed in a pass before the one that applies the force (WCSPH's force pass,
 *   PBF's vorticity pass, the device's normals kernel), n^ kept where |grad c^s| h exceeds the
 *   threshold (fc_tension_normal);
 *   kappa_i = -div n^ along the surface from the neighbours' normals, each weighed by its |grad c^s|
 *   (fc_tension_curvature_pair, fc_tension_curvature), capped at the curvature of a sphere of radius h;
 *   a_i = sigma^s kappa_i grad c^s_i / (rho0 S), S the share of the colour jump that the particles of
 *   a free surface sample (fc_lattice_surface_share: about a half, as they sample only the liquid's
 *   side), so that the force sums to sigma^s per area across a flat surface of the rest lattice.
 * The interface: eq. 5 itself on c^i in the difference form, grad c^i_i = sum_j V_j (c^i_j - c^i_i)
 * grad W_ij and lap c^i_i alike, summed in the same pass (fc_tension_interface): 0 inside
 * one fluid and at its free surface, so that only interfaces between unlike fluids feel sigma^i;
 *   a_i = -sigma^i lap(c^i) grad c^i / |grad c^i| / rho0 where |grad c^i| h exceeds the threshold.
 * Both divide the force density by the fluid's rest density rho0 (fc_tension_acceleration).
 * The solids: their boundary samples (Akinci et al. 2012, volumes V_b) take part in both colour fields
 * as a polar liquid, c^s_b = 1 and c^i_b = +1/2 (fc_tension_boundary_pair): a wall is no free surface
 * (with the plain sum, the missing neighbours behind it read as one, and the surface force then acts
 * along walls and into corners), and the walls are wetted by polar fluids as glass is by water, so
 * that a nonpolar fluid meets them as it meets water (Young's contact angle of 180 degrees under a
 * polar fluid, cos theta = (gamma_wall,oil - gamma_wall,water) / sigma^i = 1): oil under water does
 * not stick to the floor or the walls, and a polar fluid sees no interface at a wall. */
typedef struct fc_tension_terms {
    float surface[FC_SPH_MAX_FLUIDS];   /* sigma^s / S of each fluid (S: fc_lattice_surface_share), N/m */
    float interface[FC_SPH_MAX_FLUIDS]; /* sigma^i of each fluid, N/m */
    float colour[FC_SPH_MAX_FLUIDS];    /* c^i of each fluid: +1/2 polar, -1/2 nonpolar, 0 air */
    float liquid[FC_SPH_MAX_FLUIDS];    /* c^s of each fluid: 1 liquid, 0 air */
    float inv_rest[FC_SPH_MAX_FLUIDS];  /* 1 / rho0 of each fluid */
    float inv_m0;                       /* 1 / m_0: a boundary sample's weight is V_b / m_0 */
    float h2, lap_h2, lap_r2;           /* h^2, D h^2 and D + 4 (poly6's Laplacian) */
    float coeff;                        /* -6 C m_0: grad c = coeff sum_j (V_j / m_0) (h^2 - r^2)^2 x_ij */
    float threshold2;                   /* (tension_threshold / h)^2, compared with |grad c|^2 */
    float max_curvature;                /* (D - 1) / h */
    int dimensions;
    int on;                             /* tension is mueller2005 and some fluid has a tension */
} fc_tension_terms;

/* The normals' sums, FC_LANES neighbours j (one in CUDA) of particle i with weights w_j = V_j / m_0,
 * dc = c^i_j - c^i_i, cs_j = c^s_j (air is no liquid: a bubble's wall is a surface) and x_ij =
 * x_i - x_j: adds their terms to the sums of grad c^s (gs), grad c^i (gi) and lap c^i (*li), 0
 * beyond h. */
static inline FC_HD void fc_tension_normal_pair(const fc_tension_terms *t, fc_fv w_j, fc_fv dc, fc_fv cs_j, fc_fv r2,
                                                const fc_fv x_ij[3], fc_fv gs[3], fc_fv gi[3], fc_fv *li)
{
    const fc_fv d = fc_fv_positive(fc_fv_splat(t->h2) - r2), weight = w_j * d * d;
    for (int k = 0; k < 3; k++) gs[k] += cs_j * weight * x_ij[k], gi[k] += dc * weight * x_ij[k];
    /* r^2 as h^2 - d, which stops at h^2: a far lane's r^2 would overflow the product */
    *li += dc * w_j * d * (fc_fv_splat(t->lap_h2) - fc_fv_splat(t->lap_r2) * (fc_fv_splat(t->h2) - d));
}

/* The colour sums' terms of FC_LANES boundary samples b (volumes volume_b) of particle i (c^i_i = c_i):
 * a polar liquid's, c^s_b = 1 and c^i_b = +1/2 (see above), with x_ib = x_i - x_b. */
static inline FC_HD void fc_tension_boundary_pair(const fc_tension_terms *t, fc_fv volume_b, fc_fv c_i, fc_fv r2,
                                                  const fc_fv x_ib[3], fc_fv gs[3], fc_fv gi[3], fc_fv *li)
{
    fc_tension_normal_pair(t, volume_b * fc_fv_splat(t->inv_m0), fc_fv_splat(0.5f) - c_i, fc_fv_splat(1.0f), r2, x_ib, gs,
                           gi, li);
}

/* The interface's record from its sums: (grad c^i, lap c^i), the constant applied. */
static inline FC_HD void fc_tension_interface(const fc_tension_terms *t, const float gi[3], float li, float out[4])
{
    out[0] = t->coeff * gi[0], out[1] = t->coeff * gi[1], out[2] = t->coeff * gi[2], out[3] = t->coeff * li;
}

/* A field's normal from its sum: (n^x, n^y, n^z, |grad c|), or all 0 where |grad c| h is at most
 * the threshold (no surface there: n^ undefined). */
static inline FC_HD void fc_tension_normal(const fc_tension_terms *t, const float sum[3], float normal[4])
{
    const float g[3] = {t->coeff * sum[0], t->coeff * sum[1], t->coeff * sum[2]};
    const float g2 = g[0] * g[0] + g[1] * g[1] + g[2] * g[2];
    if (!(g2 > t->threshold2)) {
        normal[0] = normal[1] = normal[2] = normal[3] = 0.0f;
        return;
    }
    const float length = sqrtf(g2), inv = 1.0f / length;
    normal[0] = g[0] * inv, normal[1] = g[1] * inv, normal[2] = g[2] * inv, normal[3] = length;
}

/* The curvature sums of one field, neighbour j (its normal n_j as fc_tension_normal wrote it) of
 * particle i (n_i), w_j = V_j / m_0: sums[0] += w (n^_j - n^_i) . x_ij and sums[1] += w |x_ij,t|^2,
 * x_ij,t = x_ij - (x_ij . n^_i) n^_i the part of x_ij along the surface, w = w_j (h^2 - r^2)^2 |grad c_j|.
 * Neighbours without a normal do not count, and the others count as much as they are surface: the
 * curvature is a property of the surface, whose delta function |grad c| weighs it (Brackbill et al.
 * 1992). A disordered interior gives many particles a small gradient above the threshold and a
 * normal of noise; counted fully, they drag a surface particle's curvature down, and a drop under
 * PBF, whose interior is the less ordered, swung too slowly for its sigma (tests/RAYLEIGH.md). */
static inline FC_HD void fc_tension_curvature_pair(const fc_tension_terms *t, float w_j, float r2, const float x_ij[3],
                                                   const float n_i[4], const float n_j[4], float sums[2])
{
    const float d = t->h2 - r2;
    if (!(d > 0.0f) || n_j[3] == 0.0f) return;
    const float weight = w_j * d * d * n_j[3];
    const float along = x_ij[0] * n_i[0] + x_ij[1] * n_i[1] + x_ij[2] * n_i[2];
    sums[0] += weight * ((n_j[0] - n_i[0]) * x_ij[0] + (n_j[1] - n_i[1]) * x_ij[1] + (n_j[2] - n_i[2]) * x_ij[2]);
    sums[1] += weight * (r2 - along * along);
}

/* kappa = (D - 1) sums[0] / sums[1]: the divergence of n^ along the surface, the normalisation
 * exact for a sphere (or a circle in 2D) whatever the neighbours' spread (n^_j - n^_i = x_ij,t / R
 * there); 0 with no neighbour along the surface. The particles cannot resolve a curve tighter than
 * the kernel, so |kappa| is at most that of a sphere of radius h, (D - 1) / h: a particle on a tip
 * with a few neighbours along the surface would otherwise read a curvature of noise. */
static inline FC_HD float fc_tension_curvature(const fc_tension_terms *t, const float sums[2])
{
    if (!(sums[1] > 0.0f)) return 0.0f;
    const float kappa = (float)(t->dimensions - 1) * sums[0] / sums[1];
    return fminf(fmaxf(kappa, -t->max_curvature), t->max_curvature);
}

/* Particle i's tension acceleration, added to a: the surface's sigma^s kappa grad c^s / rho0 where
 * c^s has a normal at i, and the interface's eq. 5, -sigma^i lap(c^i) grad c^i / |grad c^i| / rho0,
 * where |grad c^i| h exceeds the threshold (interface = (grad c^i, lap c^i)). The force density is
 * divided by the fluid's rest density, not the particle's: a particle with few neighbours reads a
 * density far below the liquid it is made of, which would multiply the force on a stray drop. */
static inline FC_HD void fc_tension_acceleration(const fc_tension_terms *t, int f, const float normal_s[4], float kappa_s,
                                                 const float interface[4], float a[3])
{
    const float inv_rho_i = t->inv_rest[f];
    const float ks = t->surface[f] * kappa_s * normal_s[3] * inv_rho_i;
    const float g2 = interface[0] * interface[0] + interface[1] * interface[1] + interface[2] * interface[2];
    const float ki = g2 > t->threshold2 ? -t->interface[f] * interface[3] * inv_rho_i / sqrtf(g2) : 0.0f;
    for (int k = 0; k < 3; k++) a[k] += ks * normal_s[k] + ki * interface[k];
}

/* ---- Trapped air (Mueller et al. 2005; seed 004 section 3.5) ------------------------------------
 * Two colour fields with poly6's gradient, as the tension's normals are summed: c^p = 1 on every
 * particle (its gradient marks the edge of the particles, where vacuum begins) and c^s = 1 on liquids,
 * 0 on air (its gradient marks liquid nearby):
 *   grad c^p_i = sum_j V_j grad W_ij,  grad c^s_i = sum_j V_j c^s_j grad W_ij.
 * Seed 004's rules, with the thresholds made dimensionless by h:
 *   a liquid particle away from solids with |grad c^p| h > t_p whose surface faces down (grad c^p . g
 *   < 0, here within 60 degrees of straight down) makes an air particle at x - d spacing n^,
 *   n^ = grad c^p / |grad c^p|, when that point is free (no particle within 3/4 spacing: the air
 *   already there stops the next) and outside the particles (c^p there below 1/2, from x's
 *   neighbours);
 *   the deletion rules judge air that has been carried under, `submerged` (set, for good, the first
 *   time the particle is not at the edge, |grad c^p| h <= t_p: particles all round it): new air sits
 *   at the edge under the liquid that made it, with less than half a neighbourhood, and would go at
 *   once; it waits there, or on the pool it falls onto, until the liquid closes over it. Submerged
 *   air with |grad c^p| h > t_p (at the edge) goes when |grad c^s| h < t_s (no liquid near) or
 *   grad c^p . g > 0 (the edge faces up: it came out through the surface), and when rho < t_rho rho0
 *   (alone); air not yet submerged goes only when no liquid is near (|grad c^s| h < t_s);
 *   air carried under feels the artificial buoyancy a = -b (rho - rho0) g / rho. */
typedef struct fc_air_terms {
    float liquid[FC_SPH_MAX_FLUIDS]; /* c^s of each fluid: 1 liquid, 0 air */
    float ratio[FC_SPH_MAX_FLUIDS];  /* m_f / m_0: w_j = V_j / m_0 = ratio / rho_j */
    float rest[FC_SPH_MAX_FLUIDS];   /* rho0 of each fluid */
    float g[3];                      /* gravity */
    float g_length;                  /* |g| */
    float h2;                        /* h^2 */
    float coeff;                     /* -6 C m_0: grad c = coeff sum_j w_j (h^2 - r^2)^2 x_ij */
    float poly6_m0;                  /* C m_0: c = C m_0 sum_j w_j (h^2 - r^2)^3 */
    float generation2, deletion2;    /* (t_p / h)^2, (t_s / h)^2 */
    float deletion_density;          /* t_rho */
    float offset;                    /* d spacing, m */
    float free2;                     /* (3/4 spacing)^2 */
    float buoyancy;                  /* b */
    int air_fluid;                   /* the fluid new air is made of: the first of kind air, or -1 */
    int on;                          /* air is mueller2005 and some fluid is of kind air */
} fc_air_terms;

enum { FC_AIR_STAY, FC_AIR_SPAWN, FC_AIR_REMOVE };
enum { FC_FLAG_REMOVE = 1 }; /* the particle field `flags`: the store removes the particle */

/* FC_LANES neighbours j (one in CUDA) of particle i, w_j = V_j / m_0, cs_j = c^s_j, r_j = m_j / m_0,
 * x_ij = x_i - x_j: adds their poly6 gradient terms to the sums of grad c^p (gp) and grad c^s (gs),
 * and their poly6 weights to mass[0] (times r_j) and mass[1] (fc_air_mass_density), 0 beyond h. */
static inline FC_HD void fc_air_pair(const fc_air_terms *t, fc_fv w_j, fc_fv cs_j, fc_fv r_j, fc_fv r2,
                                     const fc_fv x_ij[3], fc_fv gp[3], fc_fv gs[3], fc_fv mass[2])
{
    const fc_fv d = fc_fv_positive(fc_fv_splat(t->h2) - r2), weight = w_j * d * d, d3 = d * d * d;
    for (int k = 0; k < 3; k++) gp[k] += weight * x_ij[k], gs[k] += cs_j * weight * x_ij[k];
    mass[0] += r_j * d3, mass[1] += d3;
}

/* The density of seed 004's artificial buoyancy, eq. 2's rho_i = sum_j m_j W_ij (i included), from
 * particle i's density in the number-density form (rho_i = m_i sum_j W_ij, which reads about air's
 * own rest density among water and would leave the buoyancy nearly nothing) and the sums of
 * fc_air_pair: rho_i times the poly6-weighted mean mass about i over m_i. Air among water reads
 * about water's density, so (rho - rho0) lifts it as the seed intends. */
static inline FC_HD float fc_air_mass_density(const fc_air_terms *t, int f, float density, const float mass[2])
{
    const float h6 = t->h2 * t->h2 * t->h2;
    return density * (t->ratio[f] * h6 + mass[0]) / (t->ratio[f] * (h6 + mass[1]));
}

/* What particle i of fluid f does from its sums (fc_air_pair), its density, whether it has solid
 * neighbours and, for air, its `submerged` mark (read, and set when it is first surrounded):
 * FC_AIR_SPAWN with the new particle's offset from x_i in spawn[3], FC_AIR_REMOVE, or FC_AIR_STAY.
 * The spawn point is still to be checked free (fc_air_point_taken). */
static inline FC_HD int fc_air_decide(const fc_air_terms *t, int f, float density, int near_solid, const float gp_sum[3],
                                      const float gs_sum[3], float spawn[3], unsigned char *submerged)
{
    const float gp[3] = {t->coeff * gp_sum[0], t->coeff * gp_sum[1], t->coeff * gp_sum[2]};
    const float gp2 = gp[0] * gp[0] + gp[1] * gp[1] + gp[2] * gp[2];
    const float facing = gp[0] * t->g[0] + gp[1] * t->g[1] + gp[2] * t->g[2]; /* < 0: the edge faces down */
    const int edge = gp2 > t->generation2;
    if (t->liquid[f] == 0.0f) {
        const float gs2 = t->coeff * t->coeff * (gs_sum[0] * gs_sum[0] + gs_sum[1] * gs_sum[1] + gs_sum[2] * gs_sum[2]);
        if (!edge) *submerged = 1;
        if (!*submerged) return gs2 < t->deletion2 ? FC_AIR_REMOVE : FC_AIR_STAY;
        if ((edge && (gs2 < t->deletion2 || facing > 0.0f)) || density < t->deletion_density * t->rest[f])
            return FC_AIR_REMOVE;
        return FC_AIR_STAY;
    }
    /* facing down: within 60 degrees of straight down (grad c^p . g < -|grad c^p| |g| / 2); the seed's
     * grad c^p . g < 0 alone lets a side wall of fluid whose normal tilts a hair downward make air */
    if (!edge || near_solid || !(facing < -0.5f * sqrtf(gp2) * t->g_length) || t->air_fluid < 0) return FC_AIR_STAY;
    const float scale = -t->offset / sqrtf(gp2);
    for (int k = 0; k < 3; k++) spawn[k] = scale * gp[k];
    return FC_AIR_SPAWN;
}

/* A neighbour j of the spawn point p at offset dx = x_j - p, w_j = V_j / m_0: whether it takes the
 * point's place, and its term of c^p at p added to *cp (fc_air_point_outside). */
static inline FC_HD int fc_air_point_taken(const fc_air_terms *t, const float dx[3], float w_j, float *cp)
{
    const float r2 = dx[0] * dx[0] + dx[1] * dx[1] + dx[2] * dx[2], d = t->h2 - r2;
    if (d > 0.0f) *cp += w_j * d * d * d;
    return r2 < t->free2;
}

/* Whether the spawn point lies outside the particles, c^p = sum_j V_j W(p - x_j) below 1/2 (the
 * surface's own value): a hole under the top layers of a pool has a roof that faces down too, but
 * particles around it; cp is the sum of fc_air_point_taken's terms. */
static inline FC_HD int fc_air_point_outside(const fc_air_terms *t, float cp) { return t->poly6_m0 * cp < 0.5f; }

/* The artificial buoyancy of an air particle of fluid f at density rho (fc_air_mass_density) over dt,
 * v += -b (rho - rho0) g dt / rho, once it has been carried under (`submerged`): it lets air rise
 * through the liquid to the surface (seed 004 section 3.5); air still under the liquid that made it
 * would lift that liquid (a falling sheet with air under it, in PBF flung up as spray). */
static inline FC_HD void fc_air_buoyancy(const fc_air_terms *t, int f, int submerged, float density, float dt, float v[3])
{
    if (t->liquid[f] != 0.0f || !submerged || !(density > 0.0f)) return;
    const float push = -t->buoyancy * (density - t->rest[f]) / density * dt;
    for (int k = 0; k < 3; k++) v[k] += push * t->g[k];
}

/* ---- Position Based Fluids (solvers/pbf.c explains the equations and the units) --------------- */

/* The constants of one PBF step, as lanes where the neighbour loops use them. */
typedef struct fc_pbf_constants {
    fc_sph_kernel kernel;        /* h, the kernel constants, V0 and the self term */
    fc_fv scorr_scale;           /* k / (D0 + epsilon), m^2 */
    fc_fv inv_w_dq;              /* 1 / (h^2 - |dq|^2)^3 */
    float epsilon;               /* relaxation, 1/m^2 */
    int scorr_n;
    float vorticity;             /* epsilon of eq. 17, m/s */
    float xsph;                  /* c of eq. 18 */
    float inverse_mass[FC_SPH_MAX_FLUIDS]; /* w_f = m_0 / m_f of each fluid (fc_pbf_constants_masses) */
    int weighted;                /* the fluids differ in mass: corrections are weighted by w (pbf.c) */
    int gas[FC_SPH_MAX_FLUIDS];  /* 1 for a fluid of kind air: its constraint only pushes (fc_pbf_lambda) */
} fc_pbf_constants;

/* From the parameters: scorr_dq as a fraction of h, and D0 = sum_k |grad_k C|^2 at a particle of the
 * rest lattice (pbf.c's lattice_denominator). */
static inline FC_HD void fc_pbf_constants_make(fc_pbf_constants *c, double h, int dims, double volume,
                                               double initial_sum, double scorr_k, double scorr_dq, int scorr_n,
                                               double rest_denominator, double epsilon, double vorticity,
                                               double xsph)
{
    const double dq = scorr_dq * h;
    fc_sph_kernel_make(&c->kernel, h, dims, volume, initial_sum);
    c->scorr_scale = fc_fv_splat((float)(scorr_k / (rest_denominator + epsilon)));
    c->inv_w_dq = fc_fv_splat((float)(1.0 / pow(h * h - dq * dq, 3)));
    c->epsilon = (float)epsilon;
    c->scorr_n = scorr_n;
    c->vorticity = (float)vorticity;
    c->xsph = (float)xsph;
    for (int f = 0; f < FC_SPH_MAX_FLUIDS; f++) c->inverse_mass[f] = 1.0f, c->gas[f] = 0;
    c->weighted = 0;
}

/* The inverse masses w_f = m_0 / m_f from the fluids' mass ratios r_f = m_f / m_0 (1 for one mass:
 * then nothing is weighted and the step is Macklin and Mueller's), and which fluids are gases
 * (gas[f] != 0: of kind air). A gas takes the first liquid's inverse mass in the constraints: its
 * weight would move trapped air m_liquid / m_air times as far as the liquid around it (ten times for
 * air in water), squeezing it out of the liquid within a few steps, and the constraint would carry
 * the buoyancy that the artificial buoyancy term already gives it (Mueller et al. 2005 section 3.5,
 * fc_air_buoyancy). The constraint's masses need not be the dynamics' (Macklin et al. 2014 scale
 * the masses of stacked particles in their contact constraints only, their 'mass scaling'). */
static inline FC_HD void fc_pbf_constants_masses(fc_pbf_constants *c, const float *ratio, const int *gas, int fluids)
{
    float liquid = 1.0f; /* the first liquid's inverse mass */
    for (int f = fluids < FC_SPH_MAX_FLUIDS ? fluids : FC_SPH_MAX_FLUIDS; f-- > 0;)
        if (!gas[f]) liquid = 1.0f / ratio[f];
    for (int f = 0; f < fluids && f < FC_SPH_MAX_FLUIDS; f++) {
        c->inverse_mass[f] = gas[f] ? liquid : 1.0f / ratio[f];
        if (c->inverse_mass[f] != 1.0f) c->weighted = 1;
        c->gas[f] = gas[f] != 0;
    }
}

/* Algorithm 1 lines 2-3: v += dt g, and the predicted position x* = x + dt v. */
static inline FC_HD void fc_pbf_predict(const float g[3], float dt, const float x[3], float v[3], float predicted[3])
{
    for (int a = 0; a < 3; a++) v[a] += dt * g[a], predicted[a] = x[a] + dt * v[a];
}

/* Algorithm 1 line 24: v = (x* - x) / dt, as inv_dt = 1 / dt. */
static inline FC_HD void fc_pbf_velocity(const float predicted[3], const float x[3], float inv_dt, float v[3])
{
    for (int a = 0; a < 3; a++) v[a] = (predicted[a] - x[a]) * inv_dt;
}

/* x^n for n in [1, 15] without a loop that depends on n. */
static inline FC_HD fc_fv fc_pbf_power_n(fc_fv x, int n)
{
    const fc_fv one = fc_fv_splat(1.0f), x2 = x * x, x4 = x2 * x2, x8 = x4 * x4;
    return ((n & 1) ? x : one) * ((n & 2) ? x2 : one) * ((n & 4) ? x4 : one) * ((n & 8) ? x8 : one);
}

/* Macklin and Mueller 2013 eq. 11 at particle i from the sums over its neighbours (grad W = -g (x_i -
 * x_j), g and d3 from fc_sph_kernel_terms):
 *   fluid_d3 = sum_j d3_ij,  grad = sum_j g_ij (x_i - x_j),  gradients2 = sum_j w_j |grad W_ij|^2 = sum_j w_j g^2 r^2,
 *   solid_d3 = sum_b V_b d3_ib,  walls = sum_b V_b g_ib (x_i - x_b);
 *   C_i = rho_i / rho0_i - 1 (eq. 1, fc_sph_density_ratio), grad_{p_i} C_i = -(V0 grad + walls) / e,
 *   lambda_i = -C_i / (w_i |grad_{p_i} C_i|^2 + V0^2 gradients2 / e^2 + w_i epsilon),
 * with rho0_i = e rho0 the particle's rest density at its temperature (e = fc_heat_expansion, 1
 * without thermal expansion): a warm particle's constraint asks for more room.
 * Several masses (Macklin et al. 2014 section 4 weight position constraints by inverse mass): C_i is
 * the number density's constraint, the same for every fluid (Solenthaler and Pajarola 2008: each
 * particle asks for the volume V0), and each particle k moves by w_k lambda_i grad_{p_k} C_i, w_k =
 * m_0 / m_k, so the sums of m_k delta p_k vanish (momentum) and a heavy particle yields less than a
 * light one: lambda plays the part of a pressure, and buoyancy follows. The relaxation is scaled by
 * w_i too, so that a fluid of one mass steps as the unweighted method does, whatever m_0.
 * A gas (gas != 0: trapped air) has no cohesion: its constraint is the inequality rho_i <= rho0_i,
 * C_i = max(rho_i / rho0_i - 1, 0), as WCSPH clamps negative pressures. With the equality, a new air
 * particle made below a surface with few neighbours reads C_i near -1 and pulls itself into the
 * liquid; the correction becomes a velocity of its size over dt, the adaptive step shortens with
 * that speed, and the next pull is faster still (a falling block with air on ran away within 30
 * steps).
 * Returns lambda_i; *boundary_gradient gets sum_b V_b grad W_ib = -walls, which delta p_i needs. */
static inline FC_HD float fc_pbf_lambda(const fc_pbf_constants *c, float fluid_d3, const float grad[3], float gradients2,
                                        float solid_d3, const float walls[3], float expansion, float w_i, int gas,
                                        float boundary_gradient[3])
{
    const float V0 = c->kernel.volume, inv_e = 1.0f / expansion;
    const float stretch = fc_sph_density_ratio(&c->kernel, fluid_d3, solid_d3) * inv_e - 1.0f;
    const float C = (gas && stretch < 0.0f) ? 0.0f : stretch;
    const float cx = (V0 * grad[0] + walls[0]) * inv_e, cy = (V0 * grad[1] + walls[1]) * inv_e,
                cz = (V0 * grad[2] + walls[2]) * inv_e;
    const float denominator =
        w_i * (cx * cx + cy * cy + cz * cz + c->epsilon) + V0 * V0 * gradients2 * inv_e * inv_e;
    for (int a = 0; a < 3; a++) boundary_gradient[a] = -walls[a];
    return denominator > 0.0f ? -C / denominator : 0.0f;
}

/* The weight of neighbour j in delta p_i (eqs. 12-14), to multiply with (x_i - x_j):
 *   (lambda_i + lambda_j + s_corr) g_ij,  s_corr = -k (W_ij / W(dq))^n / (D0 + epsilon) / w_ij,
 * w_ij = (w_i + w_j) / 2 the pair's mean inverse mass (1 for one mass): the artificial pressure is
 * a pair's, like lambda, and moves a fluid of one mass as much whatever its mass. */
static inline FC_HD fc_fv fc_pbf_correction_weight(const fc_pbf_constants *c, fc_fv lambda_i, fc_fv lambda_j, fc_fv d3,
                                                   fc_fv g, int n, fc_fv inv_w_ij)
{
    const fc_fv s_corr = -c->scorr_scale * fc_pbf_power_n(d3 * c->inv_w_dq, n) * inv_w_ij;
    return (lambda_i + lambda_j + s_corr) * g;
}

/* 1 / w_ij = 2 / (w_i + w_j) of fc_pbf_correction_weight. */
static inline FC_HD fc_fv fc_pbf_pair_mass(fc_fv w_i, fc_fv w_j) { return fc_fv_splat(2.0f) / (w_i + w_j); }

/* x* + delta p_i: delta p_i = w_i (V0 sum_j (...) grad W_ij + lambda_i sum_b V_b grad W_ib), with sum the
 * sum of the correction weights times (x_i - x_j) (grad W = -g (x_i - x_j)); w_i = 1 for one mass. */
static inline FC_HD void fc_pbf_corrected(const fc_pbf_constants *c, const float x[3], float lambda, float w_i,
                                          const float sum[3], const float boundary_gradient[3], float next[3])
{
    for (int a = 0; a < 3; a++)
        next[a] = x[a] + w_i * (lambda * boundary_gradient[a] - c->kernel.volume * sum[a]);
}

/* Vorticity and XSPH terms of neighbour j (eqs. 15, 18), with dv = v_j - v_i and d = x_i - x_j:
 * omega += g (dv x d) (grad_{p_j} W_ij = g (x_i - x_j)), xsph += d3 dv. */
static inline FC_HD void fc_pbf_vorticity_xsph_pair(fc_fv g, fc_fv d3, const fc_fv dv[3], const fc_fv d[3],
                                                    fc_fv omega[3], fc_fv xsph[3])
{
    omega[0] += g * (dv[1] * d[2] - dv[2] * d[1]);
    omega[1] += g * (dv[2] * d[0] - dv[0] * d[2]);
    omega[2] += g * (dv[0] * d[1] - dv[1] * d[0]);
    for (int a = 0; a < 3; a++) xsph[a] += d3 * dv[a];
}

/* From those sums: omega_i = V0 sum (eq. 15) and the XSPH velocity change c V0 poly6 sum (eq. 18);
 * returns |omega_i|. */
static inline FC_HD float fc_pbf_vorticity_xsph(const fc_pbf_constants *c, const float omega_sum[3],
                                                const float xsph_sum[3], float omega[3], float dv[3])
{
    const float V0 = c->kernel.volume, xsph = c->xsph * V0 * c->kernel.poly6;
    for (int a = 0; a < 3; a++) omega[a] = V0 * omega_sum[a], dv[a] = xsph * xsph_sum[a];
    return sqrtf(omega[0] * omega[0] + omega[1] * omega[1] + omega[2] * omega[2]);
}

/* The weight of neighbour j in e below, to multiply with (x_i - x_j). */
static inline FC_HD fc_fv fc_pbf_confinement_weight(fc_fv omega_norm_j, fc_fv omega_norm_i, fc_fv g)
{
    return (omega_norm_j - omega_norm_i) * g;
}

/* Vorticity confinement (eqs. 16-17) from e = sum_j (|omega_j| - |omega_i|) g_ij (x_i - x_j):
 *   eta = grad |omega| = -V0 e, N = eta / |eta| (none where |eta| h < 1e-4 |omega_i|: rounding
 *   noise, pbf.c), f = epsilon (N x omega_i). */
static inline FC_HD void fc_pbf_confinement(const fc_pbf_constants *c, const float e[3], const float omega[3],
                                            float omega_norm, float f[3])
{
    const float gx = -c->kernel.volume * e[0], gy = -c->kernel.volume * e[1], gz = -c->kernel.volume * e[2];
    const float eta = sqrtf(gx * gx + gy * gy + gz * gz);
    f[0] = f[1] = f[2] = 0.0f;
    if (!(eta * c->kernel.h_scalar > 1e-4f * omega_norm)) return;
    const float nx = gx / eta, ny = gy / eta, nz = gz / eta;
    f[0] = c->vorticity * (ny * omega[2] - nz * omega[1]);
    f[1] = c->vorticity * (nz * omega[0] - nx * omega[2]);
    f[2] = c->vorticity * (nx * omega[1] - ny * omega[0]);
}

#endif
