// GLSL of the particle impostors: camera-facing quads (or point sprites) that ray-cast a sphere, shade it like water and write its depth.
// Under an orthographic camera (a 2D world seen face-on; three.js sets isOrthographic) the rays are parallel to the view axis.

// TRANSLUCENT (defined for the second mesh): draws only the see-through fluids, the first only the opaque ones.
// POINTS (defined for the point-sprite mode): one vertex per particle, its position in `position`;
// otherwise an instanced quad whose corner is `position` and whose particle is `particlePosition`.
export const particleVertexShader = /* glsl */ `
#ifdef POINTS
  #define particlePosition position
  uniform vec2 viewport;           // drawing buffer size, pixels
  uniform float maxPointSize;      // the GPU's limit (ALIASED_POINT_SIZE_RANGE)
  varying float vPointSize;
#else
  attribute vec3 particlePosition; // normalized uint16: (q << (16 - bits)) / 65535; the model matrix maps it to metres
#endif
attribute float particleValue;     // normalized uint8 attribute section, 0..1
attribute float particleFluid;     // normalized uint8: the particle's fluid index / 255 (when fluids are hidden)

uniform float radius;              // sphere radius, metres (world units)
uniform float hiddenFluids;        // bit f set: fluid f is not drawn (0: every fluid drawn)
uniform bool fluidsLoaded;         // particleFluid holds each particle's fluid (else all count as fluid 0)
uniform float fluidOpacity[16];    // per fluid, 1 = opaque; opaque and see-through fluids are drawn by two meshes
uniform bool useClip;              // the cutaway: a particle whose centre has dot(n, p) + w < 0 is not drawn
uniform vec4 clipPlane;            // world space normal n (xyz) and constant w

varying vec3 vCentre;              // view space
varying vec3 vPoint;               // view space point on the quad (quads only)
varying float vValue;
varying float vOpacity;

void notDrawn() {
  gl_Position = vec4(2.0, 2.0, 2.0, 1.0); // outside the clip volume
#ifdef POINTS
  gl_PointSize = 0.0;
#endif
}

void main() {
  float fluid = fluidsLoaded ? floor(particleFluid * 255.0 + 0.5) : 0.0;
  if (hiddenFluids > 0.0 && fluid < 24.0 && mod(floor(hiddenFluids / exp2(fluid)), 2.0) > 0.5) {
    notDrawn();
    return;
  }
  vOpacity = fluid < 16.0 ? fluidOpacity[int(min(fluid, 15.0))] : 1.0;
#ifdef TRANSLUCENT
  if (vOpacity > 0.999) { notDrawn(); return; }
#else
  if (vOpacity <= 0.999) { notDrawn(); return; }
#endif
  vec4 world = modelMatrix * vec4(particlePosition, 1.0);
  if (useClip && dot(clipPlane.xyz, world.xyz) + clipPlane.w < 0.0) {
    notDrawn();
    return;
  }
  vec4 centre = viewMatrix * world;
  // Under perspective a sphere off the view axis covers an ellipse stretched by 1 / cos(angle)
  // on the plane through its centre, and a near one a little more: grow the quad to fit.
  float distance = length(centre.xyz);
  float cosAngle = max(-centre.z / max(distance, 1e-6), 0.2);
  float near = distance / sqrt(max(distance * distance - radius * radius, 1e-12));
  float halfSize = isOrthographic ? radius * 1.02 : radius * near / cosAngle * 1.02;
  vCentre = centre.xyz;
  vValue = particleValue;
#ifdef POINTS
  gl_Position = projectionMatrix * centre;
  float size = 2.0 * halfSize * projectionMatrix[1][1] * 0.5 * viewport.y / (isOrthographic ? 1.0 : max(-centre.z, 1e-6));
  vPointSize = min(size, maxPointSize);
  gl_PointSize = vPointSize;
  vPoint = centre.xyz;
#else
  vec3 point = centre.xyz + vec3(position.xy * halfSize, 0.0);
  vPoint = point;
  gl_Position = projectionMatrix * vec4(point, 1.0);
#endif
}
`;

export const particleFragmentShader = /* glsl */ `
uniform mat4 projectionMatrix;
uniform float radius;
uniform vec3 baseColor;            // linear
uniform bool useColormap;
uniform sampler2D colormap;        // 256 x 1, texel a = colour of attribute byte a
uniform vec3 sunDirection;         // world space, normalized
uniform vec3 skyColor;
uniform vec3 groundColor;
uniform float flatten;             // 1: true sphere normals; less: flatter, smoother-looking surface
#ifdef POINTS
  uniform vec2 viewport;
  varying float vPointSize;
#endif

varying vec3 vCentre;
varying vec3 vPoint;
varying float vValue;
varying float vOpacity;

void main() {
#ifdef POINTS
  // The sprite is a screen-aligned square around the centre: back to the plane through the centre.
  vec2 pixels = (gl_PointCoord * 2.0 - 1.0) * vec2(1.0, -1.0) * 0.5 * vPointSize;
  vec2 ndc = pixels * 2.0 / viewport;
  vec3 point = vCentre + vec3(ndc.x / projectionMatrix[0][0], ndc.y / projectionMatrix[1][1], 0.0) * (isOrthographic ? 1.0 : -vCentre.z);
#else
  vec3 point = vPoint;
#endif
  // Ray from the eye (origin of view space; orthographic: from the point, along -z) through this
  // fragment against the sphere.
  vec3 dir;
  vec3 hit;
  if (isOrthographic) {
    dir = vec3(0.0, 0.0, -1.0);
    vec2 off = point.xy - vCentre.xy;
    float h = radius * radius - dot(off, off);
    if (h < 0.0) discard;
    hit = vec3(point.xy, vCentre.z + sqrt(h));
  } else {
    dir = normalize(point);
    float b = dot(dir, vCentre);
    float h = b * b - (dot(vCentre, vCentre) - radius * radius);
    if (h < 0.0) discard;
    float t = b - sqrt(h);
    hit = dir * t;
  }
  vec3 normal = (hit - vCentre) / radius;

  vec4 clip = projectionMatrix * vec4(hit, 1.0);
  gl_FragDepth = clamp(0.5 * clip.z / clip.w + 0.5, 0.0, 1.0);

  vec3 albedo = baseColor;
  if (useColormap) albedo = texture2D(colormap, vec2((vValue * 255.0 + 0.5) / 256.0, 0.5)).rgb;

  // Shade in world space: sky above, a sun, a glossy highlight and a Fresnel rim. The shading
  // normal is the sphere's, tilted towards the eye, so that neighbouring spheres blend into one
  // surface instead of reading as separate balls.
  mat3 viewToWorld = transpose(mat3(viewMatrix));
  vec3 n = viewToWorld * normalize(vec3(normal.xy * flatten, normal.z));
  vec3 v = viewToWorld * (-dir);
  float up = 0.5 + 0.5 * n.y;
  vec3 ambient = mix(groundColor, skyColor, up);
  float wrap = max((dot(n, sunDirection) + 0.35) / 1.35, 0.0);
  vec3 halfway = normalize(sunDirection + v);
  float specular = pow(max(dot(n, halfway), 0.0), 80.0);
  float fresnel = 0.04 + 0.96 * pow(1.0 - max(dot(n, v), 0.0), 5.0);
  vec3 color = albedo * (0.45 * ambient + 0.65 * wrap);
  color = mix(color, skyColor, 0.35 * fresnel);
  color += vec3(0.45) * specular;
  gl_FragColor = vec4(color, vOpacity);
  #include <colorspace_fragment>
}
`;
