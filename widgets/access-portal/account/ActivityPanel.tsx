import { useState } from 'react';
import { AUDIT_ACTIONS, type ActivityItem } from '../../../contracts/audit.ts';
import { listActivity } from '../../shared/session/account-api.ts';
import { userMessage } from '../../shared/api/api-error.ts';
import { bidiText } from '../../shared/ui/bidi-text.tsx';
import { SelectField } from '../../shared/ui/fields.tsx';
import { formatRecordedAt } from '../../shared/lang/format.ts';
import { token } from '../../shared/ui/theme.ts';
import { useToast } from '../../shared/ui/toasts.tsx';
import { Button } from '../../shared/ui/ui.tsx';
import { useLatest } from '../../shared/api/use-latest.ts';
import { useMessages, useWidgetLang } from '../../shared/widget-host/widget-context.ts';
import { listCss, rowCss, rowDetailCss } from './list-parts.tsx';

const PAGE_SIZE = 50;
/** The actions a clinician's own lines can have (the jobs' and the trail's own are "system" lines). */
const OWN_ACTIONS = AUDIT_ACTIONS.filter(
  (action) => !['audit.prune', 'history.retention', 'account.erase'].includes(action),
);

/**
 * "Activity" (docs/API.md#my-data): the clinician's own lines of the audit trail, newest first, filtered
 * by action, a page at a time ("Load more"). Every read is itself a line (the newest, after a reload).
 */
export default function ActivityPanel({ apiBase }: { apiBase: string }) {
  const t = useMessages().account;
  const lang = useWidgetLang();
  const toast = useToast();
  const [action, setAction] = useState('');
  const [before, setBefore] = useState<string | null>(null);
  const [items, setItems] = useState<ActivityItem[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);

  useLatest(
    () => {
      setLoading(true);
      return listActivity(apiBase, { action: action || undefined, before, limit: PAGE_SIZE });
    },
    [apiBase, action, before],
    {
      onResult: (page) => {
        setItems((previous) => (before && previous ? [...previous, ...page.items] : page.items));
        setNext(page.next);
        setLoading(false);
      },
      onError: (error) => {
        setLoading(false);
        toast({
          title: (host) => host.messages.account.loadFailed,
          description: userMessage(error),
          variant: 'destructive',
        });
      },
    },
  );

  const label = (name: string) => t.actions[name] ?? name;
  return (
    <div css={{ display: 'grid', gap: '12px' }}>
      <p css={{ margin: 0, color: token('--sgx-color-muted') }}>{t.activityIntro}</p>
      <SelectField
        name="activity-action"
        label={t.filterAction}
        value={action}
        onChange={(value) => {
          setAction(value);
          setBefore(null);
        }}
        options={[
          { value: '', label: t.allActions },
          ...OWN_ACTIONS.map((name) => ({ value: name, label: label(name) })),
        ]}
      />
      {items && items.length === 0 && <p css={{ margin: 0 }}>{t.noActivity}</p>}
      {items && items.length > 0 && (
        <ul aria-label={t.activityList} part="activity-list" css={listCss}>
          {items.map((item, index) => (
            <li key={`${item.time}-${index}`} data-action={item.action} css={{ ...rowCss, display: 'block' }}>
              <strong>{label(item.action)}</strong>
              {item.outcome && item.outcome !== 'success' && <span> · {t.outcomes[item.outcome] ?? item.outcome}</span>}
              <span css={rowDetailCss}>
                {bidiText(formatRecordedAt(item.time, lang))}
                {item.address && <> · {t.activityFrom(item.address)}</>}
              </span>
              {(item.recordId || item.requestId) && (
                <span css={{ ...rowDetailCss, overflowWrap: 'anywhere' }}>
                  {item.recordId && t.activityRecord(item.recordId)}
                  {item.recordId && item.requestId && ' · '}
                  {item.requestId && t.activityRequest(item.requestId)}
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
      {next && (
        <div>
          <Button variant="secondary" busy={loading} disabled={loading} onClick={() => setBefore(next)}>
            {t.loadMore}
          </Button>
        </div>
      )}
    </div>
  );
}
