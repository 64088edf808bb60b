import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { withoutIsolates } from '../../../clinical/bidi.ts';
import type { HistoryEntry } from '../../shared/session/account-api.ts';
import { sessionStore } from '../../shared/session/session-store.ts';
import { renderWidget } from '../../test-utils.tsx';
import { HistoryPanel } from './HistoryPanel.tsx';
// Arabic here from the start, as on a page whose Arabic chunk has arrived (lang-packs.test.tsx tests the fetch).
import { arabicPack } from '../../shared/lang/messages/ar/arabic-pack.ts';
import { registerLangPack } from '../../shared/lang/lang-packs.ts';
// the access control's English texts, as the element that holds this part carries them
import '../catalogue.ts';

registerLangPack('ar', arabicPack);

// "Download FHIR" in a history entry (docs/fhir.md): GET /api/history/:id/fhir, saved as a .fhir.json file,
// with a busy button while it comes and a toast either way; none for an ROI entry.
const API = 'https://api.example.org';
const DOSE_ID = '3f2c1b7e-5d4a-4c3b-9a21-0e8f7d6c5b4a';
const ROI_ID = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const entries: HistoryEntry[] = [
  {
    id: DOSE_ID,
    patientId: null,
    toolType: 'dose_calculator',
    inputs: { bodyWeight: 70 },
    result: { kind: 'dose', indication: 'Moderate block', doseMgPerKg: 2, totalDoseMg: 140 },
    createdAt: '2026-11-22T09:06:00Z',
  },
  {
    id: ROI_ID,
    patientId: null,
    toolType: 'roi_calculator',
    inputs: { numberOfCases: 100 },
    result: { timeSaved: 1500 },
    createdAt: '2026-11-22T09:07:00Z',
  },
];
const BUNDLE = {
  resourceType: 'Bundle',
  type: 'transaction',
  entry: [{ fullUrl: 'urn:uuid:00000000-0000-4000-8000-000000000001', resource: { resourceType: 'Patient' } }],
};
const json = (status: number, body: unknown, type = 'application/json') =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': type } });

let answerFhir: ((response: Response) => void) | undefined;
let fhirRequests: { url: string; authorization: string | null }[];
let saved: { name: string; blob: Blob }[];
beforeEach(() => {
  answerFhir = undefined;
  fhirRequests = [];
  saved = [];
  sessionStore().setState({
    token: 'token-1',
    user: { id: 'u-1', email: 'dr.sara@hospital.example', name: 'Sara', license: null },
    userFetchedAt: Date.now(),
    userStatus: 'idle',
    quickUse: false,
  });
  vi.stubGlobal(
    'fetch',
    vi.fn<typeof fetch>((input, init) => {
      const url = String(input);
      if (url === `${API}/api/patients`) return Promise.resolve(json(200, { patients: [] }));
      if (url.endsWith('/fhir')) {
        fhirRequests.push({ url, authorization: new Headers(init?.headers).get('Authorization') });
        return new Promise<Response>((resolve) => (answerFhir = resolve));
      }
      if (url.startsWith(`${API}/api/history`))
        return Promise.resolve(json(200, { items: entries, page: 1, pageSize: 20, total: 2 }));
      return Promise.resolve(json(404, { message: 'Not found' }));
    }),
  );
  // saveBlob: an object URL and a clicked link; the test keeps the file instead
  const blobs = new Map<string, Blob>();
  URL.createObjectURL = (blob: Blob) => {
    const url = `blob:test-${blobs.size}`;
    blobs.set(url, blob);
    return url;
  };
  URL.revokeObjectURL = () => {};
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ name: this.download, blob: blobs.get(this.href)! });
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  document.documentElement.lang = 'en';
});

async function openEntry(tool: string) {
  const user = userEvent.setup();
  renderWidget(<HistoryPanel apiBase={API} />);
  const list = await screen.findByRole('list', { name: /History|السجل/ });
  const row = within(list)
    .getAllByRole('listitem')
    .find((item) => item.textContent!.includes(tool))!;
  await user.click(within(row).getByRole('button'));
  return user;
}
const toasts = () => {
  const region = within(screen.getByRole('region', { name: /Notifications|الإشعارات/ }));
  return [...region.queryAllByRole('status'), ...region.queryAllByRole('alert')];
};

describe('<HistoryPanel> Download FHIR', () => {
  it('downloads the entry’s Bundle as a .fhir.json file, busy until it has come', async () => {
    const user = await openEntry('Dose calculator');
    const button = screen.getByRole('button', { name: 'Download FHIR' });
    // beside "Export PDF to notes"
    expect(button.previousElementSibling?.textContent).toBe('Export PDF to notes');
    await user.click(button);
    expect(fhirRequests).toEqual([{ url: `${API}/api/history/${DOSE_ID}/fhir`, authorization: 'bearer token-1' }]);
    expect(button.getAttribute('aria-busy')).toBe('true');
    expect((button as HTMLButtonElement).disabled).toBe(true);

    await act(async () => answerFhir!(json(200, BUNDLE, 'application/fhir+json; charset=utf-8')));
    await vi.waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]!.name).toBe('sugammadex-dose-2026-11-22-3f2c1b7e.fhir.json');
    expect(saved[0]!.blob.type).toBe('application/fhir+json');
    expect(JSON.parse(await saved[0]!.blob.text())).toEqual(BUNDLE);
    expect(button.getAttribute('aria-busy')).toBeNull();
    expect((button as HTMLButtonElement).disabled).toBe(false);
    expect(toasts().map((toast) => toast.textContent)).toEqual([expect.stringContaining('FHIR file downloaded')]);
    expect(toasts()[0]!.textContent).toContain('sugammadex-dose-2026-11-22-3f2c1b7e.fhir.json');
  });

  it('a refusal is shown with the server’s message, nothing is saved, and the button works again', async () => {
    const user = await openEntry('Dose calculator');
    const button = screen.getByRole('button', { name: 'Download FHIR' });
    await user.click(button);
    await act(async () => answerFhir!(json(404, { message: 'History entry not found' })));
    await vi.waitFor(() => expect(toasts()).toHaveLength(1));
    expect(toasts()[0]!.textContent).toContain('FHIR download failed');
    expect(toasts()[0]!.textContent).toContain('History entry not found');
    expect(saved).toEqual([]);
    expect((button as HTMLButtonElement).disabled).toBe(false);
  });

  it('an answer that is not a transaction Bundle is not saved', async () => {
    const user = await openEntry('Dose calculator');
    await user.click(screen.getByRole('button', { name: 'Download FHIR' }));
    await act(async () => answerFhir!(json(200, { resourceType: 'Patient' }, 'application/fhir+json')));
    await vi.waitFor(() => expect(toasts()).toHaveLength(1));
    expect(toasts()[0]!.textContent).toContain('FHIR download failed');
    expect(saved).toEqual([]);
  });

  it('an ROI entry has no FHIR download (it holds no patient data)', async () => {
    await openEntry('ROI calculator');
    expect(screen.getByRole('button', { name: 'Export PDF to notes' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Download FHIR' })).toBeNull();
  });

  it('in Arabic', async () => {
    document.documentElement.lang = 'ar';
    const user = await openEntry('حاسبة الجرعة');
    const button = screen.getByRole('button', { name: (name) => withoutIsolates(name) === 'تنزيل FHIR' });
    await user.click(button);
    await act(async () => answerFhir!(json(404, { message: 'History entry not found' })));
    await vi.waitFor(() => expect(toasts()).toHaveLength(1));
    expect(withoutIsolates(toasts()[0]!.textContent!)).toContain('تعذّر تنزيل ملف FHIR');
  });
});
