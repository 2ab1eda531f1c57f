// Share 3 of the doc-block runs (doc-block-runs.ts): split so vitest runs the shares in parallel.
import { describeBlockRuns } from "./doc-block-runs.js";

describeBlockRuns(3);
