//! A minimal FFI to Embree 3 (`embree3/rtcore.h`, version 3.13 as packaged by Debian):
//! one device, one scene of one triangle geometry, closest hit and occlusion of single
//! rays. Struct layouts follow `rtcore_ray.h` and `rtcore_common.h` with
//! `RTC_MAX_INSTANCE_LEVEL_COUNT = 1` and `RTC_MIN_WIDTH = 0` (Debian's build).

use std::ffi::{c_char, c_void, CString};

type RTCDevice = *mut c_void;
type RTCScene = *mut c_void;
type RTCGeometry = *mut c_void;

const RTC_GEOMETRY_TYPE_TRIANGLE: i32 = 0;
const RTC_BUFFER_TYPE_INDEX: i32 = 0;
const RTC_BUFFER_TYPE_VERTEX: i32 = 1;
const RTC_FORMAT_UINT3: i32 = 0x5003;
const RTC_FORMAT_FLOAT3: i32 = 0x9003;
const RTC_INVALID_GEOMETRY_ID: u32 = u32::MAX;
/// `RTC_BUILD_QUALITY_MEDIUM`, Embree's default for static scenes.
const RTC_BUILD_QUALITY_MEDIUM: i32 = 1;

#[repr(C, align(16))]
struct RTCRay {
    org: [f32; 3],
    tnear: f32,
    dir: [f32; 3],
    time: f32,
    tfar: f32,
    mask: u32,
    id: u32,
    flags: u32,
}

#[repr(C, align(16))]
struct RTCHit {
    ng: [f32; 3],
    u: f32,
    v: f32,
    prim_id: u32,
    geom_id: u32,
    inst_id: [u32; 1],
}

#[repr(C)]
struct RTCRayHit {
    ray: RTCRay,
    hit: RTCHit,
}

#[repr(C)]
struct RTCIntersectContext {
    flags: i32,
    filter: *const c_void,
    inst_id: [u32; 1],
}

#[link(name = "embree3")]
extern "C" {
    fn rtcNewDevice(config: *const c_char) -> RTCDevice;
    fn rtcReleaseDevice(device: RTCDevice);
    fn rtcGetDeviceError(device: RTCDevice) -> i32;
    fn rtcNewScene(device: RTCDevice) -> RTCScene;
    fn rtcReleaseScene(scene: RTCScene);
    fn rtcSetSceneBuildQuality(scene: RTCScene, quality: i32);
    fn rtcCommitScene(scene: RTCScene);
    fn rtcNewGeometry(device: RTCDevice, kind: i32) -> RTCGeometry;
    fn rtcSetNewGeometryBuffer(
        geometry: RTCGeometry,
        kind: i32,
        slot: u32,
        format: i32,
        stride: usize,
        count: usize,
    ) -> *mut c_void;
    fn rtcCommitGeometry(geometry: RTCGeometry);
    fn rtcAttachGeometry(scene: RTCScene, geometry: RTCGeometry) -> u32;
    fn rtcReleaseGeometry(geometry: RTCGeometry);
    fn rtcIntersect1(scene: RTCScene, context: *mut RTCIntersectContext, rayhit: *mut RTCRayHit);
    fn rtcOccluded1(scene: RTCScene, context: *mut RTCIntersectContext, ray: *mut RTCRay);
}

/// An Embree device (`threads=1`: single-thread build and queries) and one committed
/// scene holding one triangle mesh.
pub struct Scene {
    device: RTCDevice,
    scene: RTCScene,
}

impl Scene {
    /// Builds the scene over `vertices` and `triangles` (copied into Embree's buffers).
    ///
    /// # Panics
    /// When Embree reports an error (missing library features, bad buffers).
    pub fn new(vertices: &[[f32; 3]], triangles: &[[u32; 3]]) -> Self {
        let config = CString::new("threads=1").unwrap();
        // SAFETY: `config` is a valid NUL-terminated string that outlives the call;
        // every handle below is checked for null (through the device error) before use,
        // and the buffers Embree returns are written within the sizes requested
        // (`count` items of `stride` bytes, Embree pads them for 16-byte reads).
        unsafe {
            let device = rtcNewDevice(config.as_ptr());
            assert!(!device.is_null(), "rtcNewDevice failed");
            let scene = rtcNewScene(device);
            rtcSetSceneBuildQuality(scene, RTC_BUILD_QUALITY_MEDIUM);
            let geometry = rtcNewGeometry(device, RTC_GEOMETRY_TYPE_TRIANGLE);
            let vb = rtcSetNewGeometryBuffer(
                geometry,
                RTC_BUFFER_TYPE_VERTEX,
                0,
                RTC_FORMAT_FLOAT3,
                12,
                vertices.len(),
            ) as *mut [f32; 3];
            let ib = rtcSetNewGeometryBuffer(
                geometry,
                RTC_BUFFER_TYPE_INDEX,
                0,
                RTC_FORMAT_UINT3,
                12,
                triangles.len(),
            ) as *mut [u32; 3];
            assert!(!vb.is_null() && !ib.is_null(), "rtcSetNewGeometryBuffer failed");
            std::ptr::copy_nonoverlapping(vertices.as_ptr(), vb, vertices.len());
            std::ptr::copy_nonoverlapping(triangles.as_ptr(), ib, triangles.len());
            rtcCommitGeometry(geometry);
            rtcAttachGeometry(scene, geometry);
            rtcReleaseGeometry(geometry);
            rtcCommitScene(scene);
            assert_eq!(rtcGetDeviceError(device), 0, "Embree reported an error");
            Self { device, scene }
        }
    }

    /// Closest hit of `origin + t·dir`, `t ∈ [0, ∞)`: `(t, triangle)`.
    #[inline]
    pub fn intersect(&self, origin: [f32; 3], dir: [f32; 3]) -> Option<(f32, u32)> {
        let mut context = context();
        let mut rh = RTCRayHit {
            ray: ray(origin, dir),
            hit: RTCHit {
                ng: [0.0; 3],
                u: 0.0,
                v: 0.0,
                prim_id: RTC_INVALID_GEOMETRY_ID,
                geom_id: RTC_INVALID_GEOMETRY_ID,
                inst_id: [RTC_INVALID_GEOMETRY_ID],
            },
        };
        // SAFETY: the scene is committed and alive; `context` and `rh` are valid,
        // aligned as `rtcore` requires (repr(C, align(16))), and live through the call.
        unsafe { rtcIntersect1(self.scene, &mut context, &mut rh) };
        (rh.hit.geom_id != RTC_INVALID_GEOMETRY_ID).then_some((rh.ray.tfar, rh.hit.prim_id))
    }

    /// Any hit of `origin + t·dir` with `t ∈ [0, max_t]`.
    #[inline]
    pub fn occluded(&self, origin: [f32; 3], dir: [f32; 3], max_t: f32) -> bool {
        let mut context = context();
        let mut r = ray(origin, dir);
        r.tfar = max_t;
        // SAFETY: as in `intersect`.
        unsafe { rtcOccluded1(self.scene, &mut context, &mut r) };
        // Embree sets tfar to −∞ on a hit.
        r.tfar < 0.0
    }
}

impl Drop for Scene {
    fn drop(&mut self) {
        // SAFETY: both handles came from `new` and are released once.
        unsafe {
            rtcReleaseScene(self.scene);
            rtcReleaseDevice(self.device);
        }
    }
}

/// `rtcInitIntersectContext` (an inline function of the header).
#[inline(always)]
fn context() -> RTCIntersectContext {
    RTCIntersectContext {
        flags: 0,
        filter: std::ptr::null(),
        inst_id: [RTC_INVALID_GEOMETRY_ID],
    }
}

#[inline(always)]
fn ray(origin: [f32; 3], dir: [f32; 3]) -> RTCRay {
    RTCRay {
        org: origin,
        tnear: 0.0,
        dir,
        time: 0.0,
        tfar: f32::INFINITY,
        mask: u32::MAX,
        id: 0,
        flags: 0,
    }
}
