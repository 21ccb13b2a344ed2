import { Alert, Box, Button, Stack } from '@mui/material';
import { useToast } from '../../../ui/toast';

/**
 * Ten recovery codes, shown once (issue 40): each signs in once without the app. Copy and download
 * so they end up somewhere safe; the server keeps only their hashes.
 */
export function RecoveryCodes({ codes }: { codes: string[] }) {
  const toast = useToast();
  const text = codes.join('\n') + '\n';

  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      toast({ title: 'Copied', description: 'Your recovery codes are on the clipboard.' });
    } catch {
      toast({ title: 'Error', description: 'Copying failed: select the codes and copy them yourself.', variant: 'destructive' });
    }
  }

  function download() {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'sage-recovery-codes.txt';
    link.click();
    URL.revokeObjectURL(url);
  }

  return (
    <Stack spacing={2}>
      <Alert severity="warning">
        Save these recovery codes somewhere safe. Each signs you in once if you lose your phone. They are shown only now.
      </Alert>
      <Box
        component="ul"
        aria-label="Recovery codes"
        sx={{ fontFamily: 'monospace', fontSize: '1rem', columns: { xs: 1, sm: 2 }, m: 0, pl: 3 }}
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </Box>
      <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap' }}>
        <Button variant="outlined" onClick={() => void copy()}>
          Copy codes
        </Button>
        <Button variant="outlined" onClick={download}>
          Download codes
        </Button>
      </Stack>
    </Stack>
  );
}
