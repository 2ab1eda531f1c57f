// `node --import tsx --import ./bench/support/row-codec/register.mjs …`: @skillgraph/core then reads and writes its
// registry snapshot with the row JSON codec kept here (one object per entry, checked by zod schemas) instead of its
// columnar codec. Used by bench/snapshot-codec.ts to time both codecs in the same run; nothing else loads it.
import { register } from "node:module";

register("./swap-codec-hooks.mjs", import.meta.url);
