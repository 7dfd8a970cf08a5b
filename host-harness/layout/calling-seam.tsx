/**
 * The one place where the app shell and the record pages meet the calling
 * integration (host-harness/calling, built separately): everything the
 * harness UI uses from it is re-exported here.
 */
export {
  CallingDock,
  CallingStatusBadge,
  CallingWindowPage,
  NavigationSwitch,
  ComposerPanel,
  configureCalling,
  defaultWidgetUrl,
  FaultsPanel,
  InspectorPanel,
  startCall,
  TaskQueueBar,
  TaskQueuePage,
  useCanDial,
  useDockReserve,
  useRefusedLog,
} from '../calling/index.ts'
export type { StartCallInput, StartCallResult } from '../calling/index.ts'
