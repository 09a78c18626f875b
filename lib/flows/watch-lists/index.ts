// Vigilancia: an integration's saved lists of NITs, run on a schedule as
// ordinary bulk jobs, telling only what changed since the last run. What the API and the portal use;
// every function is scoped to the integration id it is given (another's list reads as missing).
export {
  createWatchList,
  deleteWatchList,
  isPublicWatchListId,
  listWatchLists,
  pauseWatchList,
  readWatchList,
  resumeWatchList,
  WATCH_LISTS_PAGE_SIZE,
  type CreateOutcome,
  type SetAsideEntry,
  type WatchListTransaction,
  type WatchListState,
  type WatchListView,
} from './lists';
export {
  listNamedWatchListChanges,
  listWatchListChanges,
  readNamedWatchListChange,
  WATCH_CHANGES_PAGE_SIZE,
  type ChangesPage,
  type NamedWatchListChange,
  type WatchListChange,
  type WatchListChangeKey,
} from './changes';
export { WATCH_CATALOGS, type WatchCatalog } from './snapshot';
export { WATCH_SCHEDULES, nextRunAfter, type WatchSchedule } from './schedule';
export { compareFinishedRuns, computeRunChanges, startDueRuns, watchListTick, type RunChanges, type StartedRun } from './runs';
export { onWatchListChanges } from './events';
