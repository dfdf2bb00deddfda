// Workshop camera: a presenter broadcasts the camera (at most 5 poses a second, only when it moved); a watcher may follow it.

export const SEND_INTERVAL_MS = 200;
const MOVED_BY = 1e-4; // m: a pose that moved less is not sent again

function moved(a, b) {
  if (!a) return true;
  for (const key of ['position', 'target']) for (let i = 0; i < 3; i++) if (Math.abs(a[key][i] - b[key][i]) > MOVED_BY) return true;
  return false;
}

export class CameraShare {
  /** viewer: {cameraPose(), setCameraPose(pose)}; send(pose | null): the `camera` request. */
  constructor(viewer, send, { now = () => performance.now() } = {}) {
    Object.assign(this, { viewer, send, now });
    this.broadcasting = false;
    this.following = false;
    this.lastSent = null;
    this.lastSentAt = -Infinity;
    this.presenterPose = null;
  }

  setBroadcasting(on) {
    if (on === this.broadcasting) return;
    this.broadcasting = on;
    this.lastSent = null;
    if (!on) this.send(null);
    else this.tick();
  }

  setFollowing(on) {
    this.following = on;
    if (on && this.presenterPose) this.viewer.setCameraPose(this.presenterPose);
  }

  /** Called every frame or so: sends the pose when broadcasting, it moved, and the last send is old enough. */
  tick() {
    if (!this.broadcasting) return false;
    const t = this.now();
    if (t - this.lastSentAt < SEND_INTERVAL_MS) return false;
    const pose = this.viewer.cameraPose();
    if (!moved(this.lastSent, pose)) return false;
    this.lastSent = pose;
    this.lastSentAt = t;
    this.send(pose);
    return true;
  }

  /** A `camera` event from the server (the presenter's pose, or active false). */
  received(message) {
    this.presenterPose = message.active === false ? null : { position: message.position, target: message.target };
    if (this.following && this.presenterPose) this.viewer.setCameraPose(this.presenterPose);
  }
}
