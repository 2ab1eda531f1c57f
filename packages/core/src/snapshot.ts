// @skillgraph/core/snapshot: build the registry snapshot file (fast cold starts) and find its default location.
export {
  buildRegistrySnapshot,
  type BuildRegistrySnapshotOptions,
  type BuiltRegistrySnapshot,
} from "./registry/build-registry-snapshot.js";
export { defaultSnapshotFolder, defaultSnapshotFile } from "./snapshot/snapshot-location.js";
