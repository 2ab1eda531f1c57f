export {
  settleModelReply,
  settledReplyRecord,
  SETTLED_REPLY_KEY,
  type RefusedCall,
  type RefusedCallReason,
  type SettledReplyRecord,
} from "./settle-model-reply.js";
export { refusedCall, refusedCallMessage } from "./refused-call.js";
