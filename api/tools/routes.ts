import { randomUUID } from 'node:crypto';
import type Router from '@koa/router';
import * as v from 'valibot';
import {
  assessBradycardia,
  calculateDose,
  calculateRoi,
  CLINICAL_TEXTS_EN,
  type ClinicalTexts,
} from '../../clinical/index.ts';
import { strictFields } from '../../clinical/validation.ts';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { assertSecondFactor } from '../auth/second-factor-gate.ts';
import { DEFAULT_ANONYMOUS_RUNS_PER_MINUTE } from '../config.ts';
import { clientAddress } from '../http/client-address.ts';
import { idempotentAnswer, idempotentCreate, jsonFingerprint, markAnswered } from '../http/idempotency.ts';
import { clinicalTexts } from '../http/language.ts';
import { consumePoint, tooManyRequests } from '../http/rate-limit.ts';
import { validate } from '../http/validate.ts';
import {
  INVALID_INPUT_MESSAGE,
  PATIENT_NOT_FOUND_MESSAGE,
  SIGN_IN_REQUIRED_MESSAGE,
  TOO_MANY_FROM_ADDRESS_MESSAGE,
} from '../messages.ts';
import type { AuditLog } from '../storage/audit-log.ts';
import { TOOL_TYPES, type ToolType } from '../storage/records.ts';
import type { Store } from '../storage/store.ts';
import type { AppState } from '../state.ts';
import { bradycardiaResponse, doseResponse, roiResponse, type ToolResponse } from './tool-responses.ts';
import { auditContext } from '../audit/request-context.ts';
import { access, apiRouter } from '../http/access.ts';

const inputsMessage = "inputs must be an object of the tool's fields";
const toolTypeMessage = `toolType must be one of: ${TOOL_TYPES.join(', ')}`;
const runSchema = strictFields(
  {
    toolType: v.picklist(TOOL_TYPES, toolTypeMessage),
    inputs: v.custom<Record<string, unknown>>(
      (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
      inputsMessage,
    ),
    patientId: v.optional(
      v.nullable(v.pipe(v.string('patientId must be text'), v.maxLength(100, 'patientId is too long'))),
    ),
  },
  { toolType: toolTypeMessage, inputs: inputsMessage },
);

/**
 * The server recomputes every result with clinical/; it never trusts a browser's result. `texts`: the language
 * of the result's texts and of the inputs' validation messages (the numbers never depend on it).
 */
const RUNNERS: Record<ToolType, (inputs: unknown, texts: ClinicalTexts) => ToolResponse> = {
  dose_calculator: (inputs, texts) => doseResponse(calculateDose(inputs, texts)),
  bradycardia_advisor: (inputs, texts) => bradycardiaResponse(assessBradycardia(inputs, texts)),
  roi_calculator: (inputs, texts) => roiResponse(calculateRoi(inputs, texts)),
};

export function toolRoutes(deps: {
  store: Store;
  audit: AuditLog;
  now: () => Date;
  anonymousRunsPerMinute?: number;
  /** REQUIRE_MFA: a run naming a patient needs a session with a second factor (auth/second-factor-gate.ts). */
  requireMfa?: boolean;
}): Router<AppState> {
  const router = apiRouter('/api/tools');
  // Quick Use runs cost a computation each and nothing else limits them (ANONYMOUS_RUNS_PER_MINUTE).
  // Counted by each instance in its memory, like the per-clinician limit: a run stores nothing, and a
  // shared count would cost a database write per run.
  const anonymousRuns = new RateLimiterMemory({
    keyPrefix: 'anonymous-runs',
    points: deps.anonymousRunsPerMinute ?? DEFAULT_ANONYMOUS_RUNS_PER_MINUTE,
    duration: 60,
  });

  // Signed in, a run creates a history entry: an Idempotency-Key makes a retry answer the first answer.
  const idempotency = idempotentCreate({ ...deps, fingerprint: jsonFingerprint('POST /api/tools/run') });
  router.post('/run', access.anyone, idempotency, async (ctx) => {
    if (!ctx.state.auth) {
      const rate = await consumePoint(anonymousRuns, clientAddress(ctx));
      if (rate.limited) tooManyRequests(ctx, rate.retryAfterSeconds, TOO_MANY_FROM_ADDRESS_MESSAGE);
    }
    const { toolType, inputs, patientId } = validate(ctx, runSchema, ctx.request.body, [
      'toolType',
      'inputs',
      'patientId',
    ]);
    const auth = ctx.state.auth;
    if (patientId != null) {
      if (!auth) return ctx.throw(401, SIGN_IN_REQUIRED_MESSAGE);
      assertSecondFactor(ctx, deps.requireMfa ?? false);
      if (!(await deps.store.findPatient(auth.userId, patientId))) ctx.throw(404, PATIENT_NOT_FOUND_MESSAGE);
    }
    const texts = clinicalTexts(ctx);
    const response = RUNNERS[toolType](inputs, texts);
    if (response.status === 400) {
      return ctx.throw(400, response.issues[0]?.message ?? INVALID_INPUT_MESSAGE, { issues: response.issues });
    }
    const body: Record<string, unknown> = { toolType, ...response.body };
    if (auth) {
      // Quick Use (anonymous) stores nothing; a signed-in calculation goes to the caller's history, which keeps
      // what it always kept: the answer in English, whatever the language of this answer.
      const english = texts === CLINICAL_TEXTS_EN ? response : RUNNERS[toolType](inputs, CLINICAL_TEXTS_EN);
      if (english.status !== 200) throw new Error('inputs valid in one language were refused in English');
      const entry = {
        id: randomUUID(),
        ownerId: auth.userId,
        patientId: patientId ?? null,
        toolType,
        inputs,
        result: structuredClone({ toolType, ...english.body }),
        createdAt: deps.now().toISOString(),
      };
      body.historyId = entry.id;
      body.patientId = entry.patientId;
      await deps.store.saveCalculation(entry, idempotentAnswer(ctx, 200, body));
      markAnswered(ctx);
      await deps.audit.record(
        {
          actor: auth.userId,
          action: 'calculation.create',
          recordType: 'calculation',
          recordId: entry.id,
          outcome: 'success',
        },
        auditContext(ctx),
      );
    }
    ctx.body = body;
  });

  return router;
}
