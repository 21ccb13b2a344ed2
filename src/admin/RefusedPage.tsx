import { Card, CardContent, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { Title } from 'react-admin';

/**
 * A console page the signed-in role may not open: its title and why (issue 37), rather than
 * react-admin's "Not Found" or another page, so staff know the address is right and who can use it.
 */
export function RefusedPage({ title, reason, children }: { title: string; reason: string; children?: ReactNode }) {
  return (
    <Card sx={{ mt: 2, maxWidth: 640 }}>
      <Title title={title} />
      <CardContent>
        <Typography>{reason}</Typography>
        {children}
      </CardContent>
    </Card>
  );
}
