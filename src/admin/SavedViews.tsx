import { Button, Dialog, DialogActions, DialogContent, DialogTitle, MenuItem, Stack, TextField } from '@mui/material';
import { useId, useState, type FormEvent } from 'react';
import { extractValidSavedQueries, useListContext, useSavedQueries, useTranslate, type SavedQuery } from 'react-admin';
import { useNotifySuccess } from './notify';

type View = SavedQuery['value'];

/** JSON with every object's keys in order, so two views compare by what they hold. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v,
  );
}

/** Asks for the new view's name; the name is required. */
function SaveViewDialog({ onSave, onClose }: { onSave: (name: string) => void; onClose: () => void }) {
  const translate = useTranslate();
  const titleId = useId();
  const [name, setName] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim()) onSave(name.trim());
  };
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="xs">
      <form onSubmit={submit} noValidate>
        <DialogTitle id={titleId}>{translate('admin.savedViews.saveTitle')}</DialogTitle>
        <DialogContent>
          <TextField
            autoFocus
            fullWidth
            required
            margin="dense"
            label={translate('admin.savedViews.name')}
            value={name}
            onChange={(event) => setName(event.target.value)}
            slotProps={{ htmlInput: { maxLength: 100 } }}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{translate('ra.action.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={!name.trim()}>
            {translate('ra.action.save')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

/**
 * A list's saved views: react-admin's saved queries (its store, one set per resource, in this
 * browser), offered as a labelled select above the list rather than react-admin's sidebar, whose
 * remove buttons have no names and which does not put the sort back. A view keeps the filters,
 * the sort and the page size; choosing it puts all of them back.
 */
export function SavedViews() {
  const translate = useTranslate();
  const notifySuccess = useNotifySuccess();
  const { resource, filterValues, displayedFilters, sort, perPage, setFilters, setSort, setPerPage } = useListContext();
  const [savedQueries, setSavedQueries] = useSavedQueries(resource);
  const [saving, setSaving] = useState(false);
  const views = extractValidSavedQueries(savedQueries);
  const current: View = { filter: filterValues, sort, perPage, displayedFilters };
  const chosen = views.findIndex((view) => canonical(view.value) === canonical(current));

  const apply = (index: string) => {
    const view = index === '' ? undefined : views[Number(index)]?.value;
    if (!view) {
      setFilters({}, {});
      return;
    }
    setFilters(view.filter ?? {}, view.displayedFilters ?? {});
    if (view.sort) setSort(view.sort);
    if (view.perPage) setPerPage(view.perPage);
  };
  const save = (label: string) => {
    setSavedQueries([...views, { label, value: current }]);
    setSaving(false);
    notifySuccess('admin.savedViews.saved', { name: label });
  };
  const remove = () => setSavedQueries(views.filter((_view, index) => index !== chosen));

  return (
    <Stack direction="row" useFlexGap sx={{ flexWrap: 'wrap', gap: 1, alignItems: 'center', px: 2, pt: 1 }}>
      {views.length > 0 && (
        <TextField
          select
          size="small"
          label={translate('admin.savedViews.label')}
          value={chosen >= 0 ? String(chosen) : ''}
          onChange={(event) => apply(event.target.value)}
          sx={{ minWidth: 200, maxWidth: '100%' }}
        >
          <MenuItem value="">
            <em>{translate('admin.savedViews.none')}</em>
          </MenuItem>
          {views.map((view, index) => (
            <MenuItem key={index} value={String(index)}>
              {view.label}
            </MenuItem>
          ))}
        </TextField>
      )}
      {chosen >= 0 ? (
        <Button size="small" onClick={remove}>
          {translate('admin.savedViews.delete', { name: views[chosen]?.label ?? '' })}
        </Button>
      ) : (
        <Button size="small" onClick={() => setSaving(true)}>
          {translate('admin.savedViews.save')}
        </Button>
      )}
      {saving && <SaveViewDialog onSave={save} onClose={() => setSaving(false)} />}
    </Stack>
  );
}
