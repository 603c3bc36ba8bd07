export { parseRetrySchedule, DEFAULT_RETRY_SCHEDULE } from './retry-schedule.ts';
export {
  WebhookEventType,
  deliveryStream,
  deliveryView,
  webhookDeliveryDecider,
  type WebhookDeliveryView,
  type WebhookDeliveryEvent,
  type WebhookDeliveryCommand,
  type WebhookDeliveryState,
  type WebhookPayload,
  type GaveUpReason,
} from './webhook-delivery.decider.ts';
export { startWebhookDispatcher, type WebhookDispatcher, type WebhookDispatcherOptions, type WebhookFetch } from './webhook-dispatcher.ts';
export { busWebhookSigner, embeddedWebhookSigner, type WebhookSigner } from './webhook-signer.ts';
export type { WebhookToSign } from '@renopath/platform/webhooks/sign-webhook.ts';
