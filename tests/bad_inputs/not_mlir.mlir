import torch

model = torch.nn.Linear(256, 512)
print(model)
