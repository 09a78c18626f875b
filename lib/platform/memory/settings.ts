import { defineSettings, type SettingsOf } from '@/lib/platform/settings/fragment';
import { integer } from '@/lib/platform/settings/values';

// The instance's own memory (idle-collection.ts): how long it must be quiet before it collects in
// full and gives back what a burst grew its heap to.
export const MEMORY_SETTINGS = defineSettings({
  title: "The instance's memory (lib/platform/memory)",
  shape: {
    IDLE_COLLECTION_AFTER_SECONDS: integer(60, 0, 3_600),
  },
  docs: {
    IDLE_COLLECTION_AFTER_SECONDS:
      "Quiet this long (the event loop under 5 % busy) after its heap grew 32 MiB, an instance collects in full and gives the memory back; the next lookups warm it again. 0: never. Needs node's --expose-gc, which npm start gives.",
  },
});

export type MemorySettings = SettingsOf<typeof MEMORY_SETTINGS>;

export const memorySettings = (): MemorySettings => MEMORY_SETTINGS.current();
