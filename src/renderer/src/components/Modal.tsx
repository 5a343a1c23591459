import type { ReactNode } from 'react'
import { Dialog } from 'radix-ui'

/**
 * A modal step on Radix's dialog: its first field takes the focus, which stays inside while it is open; the page
 * behind is inert to assistive technology; Escape or a click outside closes it. Whoever opened it puts the focus back
 * where the work continues, so closing does not move it.
 */
export function Modal(props: { label: string; className?: string; testId?: string; onClose(): void; children: ReactNode }) {
  return (
    <Dialog.Root
      open
      onOpenChange={(open) => {
        if (!open) props.onClose()
      }}
    >
      <Dialog.Portal>
        <Dialog.Overlay className="modal-backdrop" />
        <Dialog.Content
          className={props.className ? `modal ${props.className}` : 'modal'}
          data-testid={props.testId}
          aria-describedby={undefined}
          onCloseAutoFocus={(e) => e.preventDefault()}
        >
          <Dialog.Title className="visually-hidden">{props.label}</Dialog.Title>
          {props.children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}
