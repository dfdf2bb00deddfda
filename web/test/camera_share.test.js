// Camera sharing: a presenter sends its pose at most 5 times a second and only when it moved; a follower takes the presenter's pose.
import { describe, it, expect } from 'vitest';
import { CameraShare, SEND_INTERVAL_MS } from '../src/interact/camera_share.js';

function rig() {
  const viewer = { pose: { position: [1, 2, 3], target: [0, 0, 0] }, cameraPose() { return structuredClone(this.pose); }, setCameraPose(p) { this.pose = structuredClone(p); } };
  const sent = [];
  let t = 0;
  const share = new CameraShare(viewer, (pose) => sent.push(pose), { now: () => t });
  return { viewer, sent, share, advance: (ms) => { t += ms; } };
}

describe('CameraShare', () => {
  it('sends when broadcasting starts, then only moved poses, at most every interval, and ends with null', () => {
    const { viewer, sent, share, advance } = rig();
    expect(share.tick()).toBe(false);
    share.setBroadcasting(true);
    expect(sent).toEqual([{ position: [1, 2, 3], target: [0, 0, 0] }]);
    viewer.pose.position = [1.5, 2, 3];
    advance(SEND_INTERVAL_MS / 4);
    expect(share.tick()).toBe(false); // moved, but too soon after the last send
    advance(SEND_INTERVAL_MS);
    expect(share.tick()).toBe(true);
    expect(sent.at(-1).position).toEqual([1.5, 2, 3]);
    advance(SEND_INTERVAL_MS);
    expect(share.tick()).toBe(false); // not moved since
    expect(sent).toHaveLength(2);
    share.setBroadcasting(false);
    expect(sent.at(-1)).toBeNull();
  });

  it('follows the presenter only when asked, and jumps to the newest pose when turned on', () => {
    const { viewer, share } = rig();
    share.received({ active: true, position: [9, 9, 9], target: [1, 1, 1] });
    expect(viewer.pose.position).toEqual([1, 2, 3]);
    share.setFollowing(true);
    expect(viewer.pose).toEqual({ position: [9, 9, 9], target: [1, 1, 1] });
    share.received({ active: true, position: [8, 8, 8], target: [1, 1, 1] });
    expect(viewer.pose.position).toEqual([8, 8, 8]);
    share.received({ active: false });
    expect(share.presenterPose).toBeNull();
  });
});
