// The one API layer of the UI: REST client, /ws client and connection lookup.
export * from './types'
export * from './chatTypes'
export * from './terminalTypes'
export * from './emoteTypes'
export * from './configTypes'
export * from './proactiveTypes'
export * from './approvalTypes'
export * from './mcpTypes'
export * from './memoryTypes'
export * from './taskTypes'
export * from './archiveTypes'
export * from './searchTypes'
export { snippetParts } from './searchDecode'
export { ApiClient, ApiError, isUnauthorized, DEFAULT_STREAM_IDLE_MS } from './rest'
export { decodeImportResult, filenameFromDisposition } from './archiveDecode'
export type { ApiClientOptions, StreamOptions } from './rest'
export type { MemoryClient } from './restMemory'
export type { TasksClient } from './restTasks'
export { ATTACHMENT_MAX_BYTES, UPLOAD_HEADER } from './restAttachments'
export type { AttachmentsClient, UploadOptions } from './restAttachments'
export { AVATAR_MAX_BYTES, BUILTIN_AVATAR, BUILTIN_AVATAR_PATH } from './restAvatar'
export type { AvatarClient } from './restAvatar'
export type { Avatar, AvatarKind, ExpressionName } from './wire.gen'
export type { VoiceClient } from './restVoice'
export type { ObjectUrl } from './objectUrls'
export type { Attachment, AttachmentCreated, AttachmentKind } from './wire.gen'
export type { ChatStream } from './chatStream'
export { CHAT_DIALECT } from './chatStream'
export { decodeTurnHeartbeat } from './chatDecode'
export { WispSocket, Listeners, webSocketFactory, CLOSE_POLICY_VIOLATION, CLOSE_TRY_AGAIN_LATER } from './ws'
export type { ConnectionState, CloseInfo, SocketFactory, SocketHandlers, SocketLike, Unsubscribe } from './ws'
export { resolveConnection, saveToken, tabClientId, wsURLFromOrigin, TOKEN_STORAGE_KEY } from './connection'
export type { ConnectionMode, ResolvedConnection } from './connection'
export { backoffDelay } from './backoff'
export { CLOSE_SERVICE_RESTART, planAfterRestart, reresolveOnClose, sameServer } from './reconnect'
export type { ReconnectPlan } from './reconnect'
export { SendQueue } from './sendQueue'
export { isEnvelope } from './decode'
export {
  decodeTerminalOutput,
  decodeTerminalRun,
  decodeTerminalRunDetail,
  decodeTerminalRunList,
  isTerminalRunId,
} from './terminalDecode'
export { decodeEmoteCatalog, decodeEmoteMessage } from './emoteDecode'
export { DEFAULT_CONFIG, decodeConfigSnapshot, isThemeChoice } from './configDecode'
export {
  decodeAssistantPayload,
  decodeAutonomy,
  decodeAutonomyPayload,
  decodeProactiveFrame,
  decodeReminder,
  decodeReminderList,
} from './proactiveDecode'
export { realClock } from './clock'
export type { Cancel, Clock } from './clock'
export { ContextApi, USAGE_DAYS } from './restContext'
export type { ContextTransport } from './restContext'
