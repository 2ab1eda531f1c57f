import { isDeltaSnapshot, type BaseCheckpointSaver, type CheckpointTuple } from "@langchain/langgraph-checkpoint";

/**
 * The value of one channel at a checkpoint, as a graph would see it: the stored value, a DeltaSnapshot's value, or, for a
 * delta channel with nothing stored, the nearest stored ancestor value with the writes since replayed through `reducer`.
 */
export async function readChannelValue<T>(
  saver: BaseCheckpointSaver,
  tuple: CheckpointTuple,
  channel: string,
  { reducer, initial }: { reducer?: (state: T, writes: unknown[]) => T; initial?: () => T } = {},
): Promise<T | undefined> {
  const values = tuple.checkpoint.channel_values ?? {};
  if (Object.prototype.hasOwnProperty.call(values, channel)) {
    const stored = values[channel];
    return (isDeltaSnapshot(stored) ? stored.value : stored) as T;
  }
  if (!reducer || tuple.checkpoint.channel_versions?.[channel] === undefined) return undefined;
  const histories = await saver.getDeltaChannelHistory({ config: tuple.config, channels: [channel] });
  const history = histories[channel];
  if (!history) return undefined;
  const seed =
    history.seed === undefined
      ? (initial?.() as T)
      : ((isDeltaSnapshot(history.seed) ? history.seed.value : history.seed) as T);
  const writes = history.writes.map((write) => write[2]);
  return writes.length > 0 ? reducer(seed, writes) : seed;
}
